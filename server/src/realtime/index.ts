/**
 * The push side (shared/src/realtime/events.ts is the contract): socket-server.ts authorises
 * subscriptions into rooms; realtime.ts starts the pollers of @fleet/workers, which GET the device API as
 * the subscriber, diff the answer and emit `device:changed` and friends; sessions.ts ends a user's sockets.
 */
export { deviceApiGetter, startRealtime } from './realtime.ts';
export { sessionHub, type SessionEnder, type SessionHub } from './sessions.ts';
export { socketTarget } from './socket-target.ts';
export type { FleetIo } from './socket-server.ts';
