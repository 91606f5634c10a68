/**
 * Devices (spec sections 3, 4 and 7): the device list and panel calls (devices.routes.ts ->
 * devices.service.ts -> devices.repository.ts), pending changes a person asked for (pending-changes.ts)
 * and the warning list (device-warnings.ts, the shared rules of shared/src/rules/warnings.ts). Every write
 * to a device row refreshes its list JSON in the database (migrations 0003/0005/0007), which the realtime
 * pollers diff and push (server/src/realtime).
 */
export { devicesRoutes } from './devices.routes.ts';
export { selectionsRoutes } from './selections.routes.ts';
export { devicesService, type DevicesService } from './devices.service.ts';
export { devicesRepository, type DevicesRepository } from './devices.repository.ts';
export { recomputeWarnings } from './device-warnings.ts';
export { requestChange } from './pending-changes.ts';
export { PIN_TUPLE_SQL } from './pin-sql.ts';
