export {
  $userManagementOpen,
  $userManagementSection,
  userManagementClosed,
  userManagementOpened,
  userManagementSectionSelected,
  type UserManagementSection,
} from './model';
export { UserManagementDialog } from './ui/user-management-dialog';
