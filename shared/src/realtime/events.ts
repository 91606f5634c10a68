/**
 * The realtime contract between the push server, the workers' emitter and the client (Socket.IO).
 * Browsers load once over REST and never poll: they subscribe to what they show, and the server pushes
 * changes found by one upstream poll per subject (spec refresh schedules: panel 10 s, cards/pins 20 s,
 * SIM log 15 s).
 *
 * Rooms: `device:{serial}` (panel), `devices:{serial}` (cards/pins of one device), `simLog:{serial}`,
 * `overview:{userId}` (overall counts), `overview:{userId}:{location}` (one county, spec section 4) and
 * `pins:{userId}` (the map's pin deltas, issue 46: pushed from the change path, never polled).
 * Every subscription is authorised with the same scope rules as REST. `overview:changed` always carries
 * `location` (null overall, the county id otherwise), so a client subscribed to both tells them apart.
 */
import type { DeviceListItemShape, PendingFlags } from './device-shape.ts';
import type { DevicePinTuple } from '../rules/device-pin.ts';
import type { PolledTopic, Subscription } from './subscription.ts';
import type { IncidentNotice } from '../schemas/alerts.schema.ts';

/** The changed counts plus `location`, always present: null for the overall counts, else the county id. */
export type OverviewChangedPayload = Record<string, number | null> & { location: number | null };

export type SubscribeAck = { ok: true; subscribed: string[] } | { ok: false; error: string; refused?: string[] };

export type ServerToClientEvents = {
  /** Fields of a device that changed since the last poll (a patch of the device answer). */
  'device:changed': (payload: {
    serial: string;
    patch: Partial<DeviceListItemShape> & Record<string, unknown>;
    at: string;
  }) => void;
  /** Pending flags of a device changed (set by a person, or cleared by the device's acknowledgement). */
  'pendingFlags:changed': (payload: { serial: string; pending_flags: PendingFlags; at: string }) => void;
  /** New SMS log rows, newest first. */
  'smsLog:appended': (payload: {
    serial: string;
    rows: { direction: string; message: string; created_when: string }[];
    at: string;
  }) => void;
  /**
   * Pins of the caller's placed devices that changed (topic `pins`, room `pins:{userId}`), from the change
   * path: a check-in or a write that changed what a pin shows. `upserts` are whole pins as GET
   * /api/v1/devicePins gives them (new or changed; a device that came into the caller's scope or was placed
   * is an upsert too); `removed` the serials whose pins left the map (deleted, unplaced, or out of scope).
   * Apply in order received; after a reconnect, re-read GET /api/v1/devicePins.
   */
  'pins:changed': (payload: { upserts: DevicePinTuple[]; removed: string[]; at: string }) => void;
  /** Overview counts that changed, and which overview they belong to (null: overall). */
  'overview:changed': (payload: OverviewChangedPayload) => void;
  /**
   * The session behind this socket ended (sign-out, account deactivated, password reset); the server
   * disconnects the socket right after. The client forgets its token and shows the sign-in screen.
   */
  'session:ended': (payload: { reason: SessionEndReason }) => void;
  /**
   * A published service plan moved on (a maintenance record of one of its devices): sent to the plan
   * owner's sockets (room `user:{ownerId}`), with each stop's state, so the Service day view shows progress live.
   */
  'servicePlan:progressed': (payload: ServicePlanProgress) => void;
  /**
   * An incident reached this user in-app (raised, reopened or escalated to them): room `user:{id}`, every
   * socket of the user (server/src/alerts). `notificationId` is the row's id: a notice sent twice (a worker
   * restarted between sending and recording it) is the same notice, which the client counts once.
   */
  'incident:notified': (payload: IncidentNotice & { notificationId: number }) => void;
};

/** Where a published service plan stands: the plan's status, and which devices and stops are done. */
export type ServicePlanProgress = {
  planId: number;
  date: string;
  status: 'draft' | 'published' | 'in_progress' | 'done' | 'superseded';
  progress: { stops: number; done: number };
  stops: { crewId: number; order: number; done: boolean }[];
  serviced: string[];
  at: string;
};

/** Why the server ended a session: the client tells them apart (deactivated opens the Account Deactivated dialog). */
export type SessionEndReason = 'logout' | 'deactivated' | 'password-reset' | 'expired';

export type ClientToServerEvents = {
  subscribe: (subscription: Subscription, ack: (result: SubscribeAck) => void) => void;
  unsubscribe: (subscription: Subscription, ack?: (result: { ok: true }) => void) => void;
};

/**
 * The watch-registry subject of an overview subscription: `{userId}` overall, `{userId}:{location}` for
 * one county. The push server writes it, the pollers read it back to know whom to act as and what to GET.
 */
export const overviewSubject = {
  format: (userId: number, location?: number | null) => (location ? `${userId}:${location}` : String(userId)),
  parse(subject: string): { userId: number; location: number | null } {
    const [userId, location] = subject.split(':');
    return { userId: Number(userId), location: location ? Number(location) : null };
  },
};

/** Room names, in one place for server, workers and client. */
export const rooms = {
  device: (serial: string) => `device:${serial}`,
  deviceCards: (serial: string) => `devices:${serial}`,
  simLog: (serial: string) => `simLog:${serial}`,
  overview: (userId: number, location?: number | null) => `overview:${overviewSubject.format(userId, location)}`,
  /** The pin deltas of one user's scope (topic `pins`). */
  pins: (userId: number) => `pins:${userId}`,
  /** Every socket of one user (ended together on deactivation or password reset). */
  user: (userId: number) => `user:${userId}`,
  /** Every socket opened with one API token (ended on that token's sign-out); `tokenId` is the token's row id. */
  session: (tokenId: number) => `session:${tokenId}`,
};

/** Poll periods per polled topic (spec section 9); `pins` is not polled (its deltas come from the change path). */
export const POLL_MS: Record<PolledTopic, number> = {
  device: 10_000,
  deviceCards: 20_000,
  simLog: 15_000,
  overview: 20_000,
};
