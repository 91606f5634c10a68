/** The technician's /maintenance list and its credential (maintenance.routes.ts -> maintenance.service.ts -> maintenance.repository.ts). */
export { maintenanceRoutes, maintenanceServiceOf } from './maintenance.routes.ts';
/** Pump events by hour-of-week slot: the forecasts' history (the alerts' run-dry condition reads it too). */
export { maintenanceRepository } from './maintenance.repository.ts';
