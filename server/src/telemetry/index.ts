/**
 * Telemetry reads of spec section 7 (pump log, battery log, data usage, SMS log, SIM status):
 * telemetry.routes.ts -> telemetry.service.ts -> telemetry.repository.ts, buckets cut in the site's zone
 * by the shared helpers. The rows are written by the device gateway (server/src/gateway).
 */
export { telemetryRoutes } from './telemetry.routes.ts';
export { telemetryRepository, type DeviceRange } from './telemetry.repository.ts';
