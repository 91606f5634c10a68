/**
 * The realtime contract between the push server, the workers' emitter and the client (Socket.IO).
 * Browsers load once over REST and never poll: they subscribe to what they show, and the server pushes
 * changes found by one upstream poll per subject (spec refresh schedules: panel 10 s, cards/pins 20 s,
 * SIM log 15 s).
 *
 * Rooms: `device:{serial}` (panel), `devices:{serial}` (cards/pins of one device), `simLog:{serial}`,
 * `overview:{userId}`. Every subscription is authorised with the same scope rules as REST.
 */
import type { DeviceListItemShape } from './device-shape.ts';

export type SubscriptionTopic = 'device' | 'deviceCards' | 'simLog' | 'overview';

export type Subscription =
  | { topic: 'device'; serial: string }
  | { topic: 'deviceCards'; serials: string[] }
  | { topic: 'simLog'; serial: string }
  | { topic: 'overview' };

export type SubscribeAck = { ok: true; subscribed: string[] } | { ok: false; error: string; refused?: string[] };

export type ServerToClientEvents = {
  /** Fields of a device that changed since the last poll (a patch of the device answer). */
  'device:changed': (payload: { serial: string; patch: Partial<DeviceListItemShape> & Record<string, unknown>; at: string }) => void;
  /** Pending flags of a device changed (set by a person, or cleared by the device's acknowledgement). */
  'pendingFlags:changed': (payload: { serial: string; pending_flags: { activation_changed: boolean; rental_changed: boolean; others: boolean }; at: string }) => void;
  /** New SMS log rows, newest first. */
  'smsLog:appended': (payload: { serial: string; rows: { direction: string; message: string; created_when: string }[]; at: string }) => void;
  /** Overview counts that changed. */
  'overview:changed': (payload: Record<string, number | null>) => void;
};

export type ClientToServerEvents = {
  subscribe: (subscription: Subscription, ack: (result: SubscribeAck) => void) => void;
  unsubscribe: (subscription: Subscription, ack?: (result: { ok: true }) => void) => void;
};

/** Room names, in one place for server, workers and client. */
export const rooms = {
  device: (serial: string) => `device:${serial}`,
  deviceCards: (serial: string) => `devices:${serial}`,
  simLog: (serial: string) => `simLog:${serial}`,
  overview: (userId: number) => `overview:${userId}`,
};

/** Poll periods per topic (spec section 9). */
export const POLL_MS: Record<SubscriptionTopic, number> = { device: 10_000, deviceCards: 20_000, simLog: 15_000, overview: 20_000 };
