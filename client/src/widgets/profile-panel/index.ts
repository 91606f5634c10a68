export { ProfilePanel } from './ui/profile-panel';
export { userManagementRequested, zoomInRequested, zoomOutRequested } from './model';
