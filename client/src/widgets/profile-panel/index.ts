export { initials, ProfilePanel } from './ui/profile-panel';
