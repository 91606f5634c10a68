/** The technician's /maintenance list and its credential (maintenance.routes.ts -> maintenance.service.ts -> maintenance.repository.ts). */
export { maintenanceRoutes, maintenanceServiceOf } from './maintenance.routes.ts';
export { maintenanceRepository, type SlotRow } from './maintenance.repository.ts';
