export { ExclusiveManagementPage } from './ui/exclusive-management-page';
