import type {
  ClientToServerEvents,
  ServerToClientEvents,
  ServicePlanProgress,
  SessionEndReason,
  SubscribeAck,
  Subscription,
} from '@fleet/shared';
import { attach, createEffect, createEvent, createStore, sample, scopeBind } from 'effector';
import type { Socket } from 'socket.io-client';
import { yieldToBrowser } from '../lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The tab's one Socket.IO connection to the push server, typed with the shared realtime contract.
 * It knows nothing about devices: entities map its events onto their stores. socket.io-client loads
 * with the first connection (after sign-in), so the login page never downloads it.
 */
export type FleetSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type DeviceChangedPayload = Parameters<ServerToClientEvents['device:changed']>[0];
export type OverviewChangedPayload = Parameters<ServerToClientEvents['overview:changed']>[0];
export type SmsLogAppendedPayload = Parameters<ServerToClientEvents['smsLog:appended']>[0];
export type IncidentNotifiedPayload = Parameters<ServerToClientEvents['incident:notified']>[0];
export type PinsChangedPayload = Parameters<ServerToClientEvents['pins:changed']>[0];

/** Reconnect backoff: 1 s doubling to 30 s, jittered, forever (the push server may start later). */
export const RECONNECT = { delayMs: 1_000, delayMaxMs: 30_000, jitter: 0.5 } as const;
/** How long a subscribe waits for its acknowledgement. */
const ACK_TIMEOUT_MS = 10_000;

export const connectRequested = createEvent<{ token: string }>();
export const disconnectRequested = createEvent();
/** Connected (first time: reconnect false). After a reconnect, subscriptions and snapshots are redone. */
export const socketConnected = createEvent<{ reconnect: boolean }>();
export const socketDisconnected = createEvent();
export const deviceChangedReceived = createEvent<DeviceChangedPayload>();
export const overviewChangedReceived = createEvent<OverviewChangedPayload>();
/** The map's pin deltas (topic `pins`, issue 46): whole pins changed or added, serials gone. */
export const pinsChangedReceived = createEvent<PinsChangedPayload>();
export const smsLogAppendedReceived = createEvent<SmsLogAppendedPayload>();
/** A published service plan of this user moved on (a maintenance record): the Service day view patches its plan. */
export const servicePlanProgressedReceived = createEvent<ServicePlanProgress>();
/** An incident reached this user in-app (raised, reopened, escalated): the bell counts it (issue 43). */
export const incidentNotifiedReceived = createEvent<IncidentNotifiedPayload>();
/**
 * The server ended this session ('session:ended' before it disconnects the socket, e.g. an account
 * deactivated for an overdue invoice), or refused a reconnect because the token no longer holds (403: the
 * account is deactivated; 401: the token is gone). The app turns it into the end of the session.
 */
export const sessionEndedReceived = createEvent<{ reason: SessionEndReason }>();

export const $socket = createStore<FleetSocket | null>(null, { serialize: 'ignore' });
export const $connected = createStore(false);

/** Cancels a socket's pending manual retry when the session ends. */
const stoppers = new WeakMap<FleetSocket, () => void>();

export const connectFx = createEffect(async ({ token }: { token: string }): Promise<FleetSocket> => {
  // Bound before the first await: socket callbacks run outside effector and must land in this scope.
  const connected = scopeBind(socketConnected, { safe: true });
  const disconnected = scopeBind(socketDisconnected, { safe: true });
  const deviceChanged = scopeBind(deviceChangedReceived, { safe: true });
  const overviewChanged = scopeBind(overviewChangedReceived, { safe: true });
  const pinsChanged = scopeBind(pinsChangedReceived, { safe: true });
  const smsLogAppended = scopeBind(smsLogAppendedReceived, { safe: true });
  const sessionEndedByServer = scopeBind(sessionEndedReceived, { safe: true });
  const servicePlanProgressed = scopeBind(servicePlanProgressedReceived, { safe: true });
  const incidentNotified = scopeBind(incidentNotifiedReceived, { safe: true });

  const { io } = await import('socket.io-client');
  const socket: FleetSocket = io({
    path: '/socket.io',
    auth: { token },
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: RECONNECT.delayMs,
    reconnectionDelayMax: RECONNECT.delayMaxMs,
    randomizationFactor: RECONNECT.jitter,
  });
  let everConnected = false;
  let retry: number | undefined;
  socket.on('connect', () => {
    connected({ reconnect: everConnected });
    everConnected = true;
  });
  socket.on('disconnect', (reason) => {
    disconnected();
    // socket.io does not reconnect after the server closed the connection on purpose: do it, slowly.
    if (reason === 'io server disconnect' && retry === undefined) {
      retry = window.setTimeout(() => {
        retry = undefined;
        socket.connect();
      }, RECONNECT.delayMs);
    }
  });
  socket.on('connect_error', (error) => {
    const status = (error as Error & { data?: { status?: number } }).data?.status;
    if (status === 401 || status === 403) {
      sessionEndedByServer({ reason: status === 403 ? 'deactivated' : 'expired' });
      return;
    }
    // A refusal by the server's middleware is not retried by socket.io itself; retry slowly, quietly.
    if (!socket.active && retry === undefined) {
      retry = window.setTimeout(() => {
        retry = undefined;
        socket.connect();
      }, RECONNECT.delayMaxMs);
    }
  });
  stoppers.set(socket, () => window.clearTimeout(retry));
  socket.on('device:changed', (payload) => deviceChanged(payload));
  socket.on('overview:changed', (payload) => overviewChanged(payload));
  socket.on('pins:changed', (payload) => pinsChanged(payload));
  socket.on('smsLog:appended', (payload) => smsLogAppended(payload));
  socket.on('session:ended', (payload) => sessionEndedByServer(payload));
  socket.on('servicePlan:progressed', (payload) => servicePlanProgressed(payload));
  socket.on('incident:notified', (payload) => incidentNotified(payload));
  return socket;
});

const disconnectFx = attach({
  source: $socket,
  effect: (socket) => {
    if (socket) stoppers.get(socket)?.();
    socket?.removeAllListeners();
    socket?.disconnect();
  },
});

/** Subscribe to a topic; a refusal or a silent server is not an error worth showing. */
export const subscribeFx = attach({
  source: $socket,
  effect: async (socket, subscription: Subscription): Promise<SubscribeAck> => {
    if (!socket?.connected) return { ok: false, error: 'not connected' };
    try {
      return await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('subscribe', subscription);
    } catch {
      return { ok: false, error: 'no acknowledgement' };
    }
  },
});

export const unsubscribeFx = attach({
  source: $socket,
  effect: (socket, subscription: Subscription) => {
    if (socket?.connected) socket.emit('unsubscribe', subscription);
  },
});

$socket.on(connectFx.doneData, (_, socket) => socket).reset(disconnectFx.finally);
$connected
  .on(socketConnected, () => true)
  .on(socketDisconnected, () => false)
  .reset(disconnectFx.finally);

sample({
  clock: connectRequested,
  source: $socket,
  filter: (socket) => socket === null,
  fn: (_, params) => params,
  target: connectFx,
});
sample({ clock: disconnectRequested, target: disconnectFx });
