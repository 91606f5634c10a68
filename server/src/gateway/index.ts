/**
 * The device gateway: devices check in here (POST /device/v1/checkin) with their telemetry and take their
 * configuration and pending changes back. Read gateway.service.ts (checkin) first: it stores the upload
 * (gateway.repository.ts, migration 0006), applies the shared warning rules and updates the device row,
 * whose list JSON the realtime pollers diff and push to browsers (server/src/realtime).
 */
export { deviceGatewayRouter, gatewayAdminRoutes, gatewayServiceOf } from './gateway.routes.ts';
