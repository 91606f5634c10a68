export { MaintenanceResultPage } from './ui/maintenance-result-page';
