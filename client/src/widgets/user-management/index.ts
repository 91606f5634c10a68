export { $userManagementOpen, userManagementOpened } from './model';
export { UserManagementDialog } from './ui/user-management-dialog';
