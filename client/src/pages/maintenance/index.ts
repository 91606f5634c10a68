export { MaintenancePage } from './ui/maintenance-page';
