/** Market partners and their exclusive devices (partners.routes.ts -> partners.service.ts -> partners.repository.ts); device-access.ts takes removed devices out of live sockets. */
export { partnersRoutes } from './partners.routes.ts';
export { deviceAccessHub, type DeviceAccessHub } from './device-access.ts';
export type { DeviceAccessNotifier } from './partners.service.ts';
