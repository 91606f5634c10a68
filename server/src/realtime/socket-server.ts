import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  COUNTY_ERROR,
  overviewSubject,
  rooms,
  subscriptionSchema,
  type ClientToServerEvents,
  type SessionEndReason,
  type ServerToClientEvents,
  type SubscriptionTopic,
} from '@fleet/shared';
import type { WatchRegistry } from '@fleet/workers';
import { deviceScope } from '../access/scope.ts';
import type { AuthService, Viewer } from '../auth/index.ts';
import type { Db } from '../db/client.ts';
import { devices, locations } from '../db/schema.ts';
import { ApiError } from '../lib/errors.ts';

type SocketData = {
  viewer: Viewer;
  token: string;
  subs: Map<string, { topic: SubscriptionTopic; subject: string }>;
  expiry?: NodeJS.Timeout;
};
/** The longest a socket waits between checks of its token's expiry (a timer cannot wait 30 days). */
const EXPIRY_CHECK_MAX_MS = 6 * 3_600_000;
type FleetSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type FleetIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * The push gateway: a browser authenticates its socket with the same token as REST and subscribes to
 * what it shows. Every subscription is authorised with the same scope rule as REST (a client cannot
 * watch a device outside its brands); accepted subjects enter the watch registry the pollers read.
 */
export function attachRealtime(
  httpServer: http.Server,
  deps: {
    db: Db;
    auth: AuthService;
    registry: WatchRegistry;
    redis?: { pub: Redis; sub: Redis; channel?: string };
    log?: (m: string, e?: unknown) => void;
  },
) {
  const io: FleetIo = new Server(httpServer, { path: '/socket.io', serveClient: false, transports: ['websocket', 'polling'] });
  if (deps.redis)
    io.adapter(createAdapter(deps.redis.pub, deps.redis.sub, deps.redis.channel ? { key: deps.redis.channel } : {}));

  io.use(async (socket, next) => {
    try {
      const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : '';
      socket.data.viewer = await deps.auth.authenticate(token ? `Token ${token}` : undefined);
      socket.data.token = token;
      socket.data.subs = new Map();
      next();
    } catch (err) {
      const e = err instanceof ApiError ? err : ApiError.unauthorized();
      const error = new Error(String(e.body.detail ?? 'Unauthorized')) as Error & { data?: unknown };
      error.data = { status: e.status, code: e.body.code };
      next(error);
    }
  });

  /** Serials of the list the viewer may see. */
  async function allowedSerials(viewer: Viewer, wanted: string[]): Promise<Set<string>> {
    const rows = await deps.db
      .select({ serial: devices.serial })
      .from(devices)
      .where(and(inArray(devices.serial, wanted), sql`${devices.groupId} is not null`, deviceScope(viewer)));
    return new Set(rows.map((r) => r.serial));
  }

  async function join(socket: FleetSocket, topic: SubscriptionTopic, subject: string, room: string) {
    const key = `${topic}:${subject}`;
    // Joined even when already subscribed: a device taken from a market partner and given back has had
    // its room left by the server (partners/device-access.ts) while the subscription stayed recorded.
    await socket.join(room);
    if (socket.data.subs.has(key)) return;
    socket.data.subs.set(key, { topic, subject });
    await deps.registry.add(topic, subject);
  }

  async function leave(socket: FleetSocket, topic: SubscriptionTopic, subject: string, room: string) {
    const key = `${topic}:${subject}`;
    if (!socket.data.subs.delete(key)) return;
    await socket.leave(room);
    await deps.registry.remove(topic, subject);
  }

  /** Whether a county exists: an unknown id would only add a subject to poll for nothing. */
  async function countyExists(id: number) {
    const rows = await deps.db.select({ id: locations.id }).from(locations).where(eq(locations.id, id)).limit(1);
    return rows.length > 0;
  }

  const roomOf = (topic: SubscriptionTopic, subject: string) => {
    if (topic === 'pins') return rooms.pins(Number(subject));
    if (topic !== 'overview')
      return topic === 'device'
        ? rooms.device(subject)
        : topic === 'deviceCards'
          ? rooms.deviceCards(subject)
          : rooms.simLog(subject);
    const { userId, location } = overviewSubject.parse(subject);
    return rooms.overview(userId, location);
  };

  /**
   * Whether the socket's session still holds: a subscription re-reads the token, so a session ended in a
   * way no notice reached (a lost adapter message, an expired token) cannot subscribe again either.
   * Answers why it ended, or null.
   */
  async function endedSession(socket: FleetSocket, peek = false): Promise<SessionEndReason | null> {
    try {
      socket.data.viewer = await deps.auth.authenticate(`Token ${socket.data.token}`, undefined, { peek });
      return null;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403))
        return err.status === 403 ? 'deactivated' : 'expired';
      throw err;
    }
  }

  io.on('connection', (socket) => {
    // Rooms that end sessions (sessions.ts): all of this user's sockets, and those of this one token.
    void socket.join(rooms.user(socket.data.viewer.id));
    if (socket.data.viewer.tokenId) void socket.join(rooms.session(socket.data.viewer.tokenId));
    // A token that simply expires (no sign-out, so no notice) ends its sockets when it does: checked at the
    // moment it would expire unused (a peek, which slides nothing); a token used meanwhile waits again.
    const watchExpiry = (retryMs?: number) => {
      const at = socket.data.viewer.tokenExpiresAt;
      if (!at || socket.disconnected) return;
      const wait = retryMs ?? Math.min(Math.max(at.getTime() - Date.now() + 250, 250), EXPIRY_CHECK_MAX_MS);
      socket.data.expiry = setTimeout(async () => {
        try {
          const ended = await endedSession(socket, true);
          if (!ended) return watchExpiry();
          socket.emit('session:ended', { reason: ended });
          socket.disconnect(true);
        } catch (err) {
          deps.log?.('session expiry check failed', err);
          watchExpiry(30_000);
        }
      }, wait);
      socket.data.expiry.unref();
    };
    watchExpiry();
    socket.on('subscribe', async (raw, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        const ended = await endedSession(socket);
        if (ended) {
          reply({ ok: false, error: 'Your session has ended.' });
          socket.emit('session:ended', { reason: ended });
          socket.disconnect(true);
          return;
        }
        const parsed = subscriptionSchema.safeParse(raw);
        if (!parsed.success) {
          const badCounty = parsed.error.issues.some((i) => i.path[0] === 'location');
          return reply({ ok: false, error: badCounty ? COUNTY_ERROR : 'Invalid subscription.' });
        }
        const sub = parsed.data;
        const viewer = socket.data.viewer;
        if (sub.topic === 'overview') {
          // The counts themselves are scoped by the REST call the poller makes as this viewer.
          if (sub.location !== undefined && !(await countyExists(sub.location)))
            return reply({ ok: false, error: 'No county with this id.' });
          const subject = overviewSubject.format(viewer.id, sub.location);
          await join(socket, 'overview', subject, rooms.overview(viewer.id, sub.location));
          return reply({ ok: true, subscribed: [`overview:${subject}`] });
        }
        if (sub.topic === 'pins') {
          // The caller's own room: the change path (realtime/pin-deltas.ts) sends each user only the pins of
          // its scope, read at the change, so a scope change needs no room change.
          await join(socket, 'pins', String(viewer.id), rooms.pins(viewer.id));
          return reply({ ok: true, subscribed: [`pins:${viewer.id}`] });
        }
        const wanted = sub.topic === 'deviceCards' ? [...new Set(sub.serials)] : [sub.serial];
        const allowed = await allowedSerials(viewer, wanted);
        const refused = wanted.filter((s) => !allowed.has(s));
        if (sub.topic !== 'deviceCards' && refused.length)
          return reply({ ok: false, error: 'No device with this serial.', refused });
        for (const s of wanted.filter((x) => allowed.has(x))) await join(socket, sub.topic, s, roomOf(sub.topic, s));
        return reply(
          refused.length
            ? { ok: false, error: 'Some devices are outside your scope.', refused }
            : { ok: true, subscribed: wanted.map((s) => `${sub.topic}:${s}`) },
        );
      } catch (err) {
        deps.log?.('subscribe failed', err);
        reply({ ok: false, error: 'Something went wrong.' });
      }
    });
    socket.on('unsubscribe', async (raw, ack) => {
      const parsed = subscriptionSchema.safeParse(raw);
      if (parsed.success) {
        const sub = parsed.data;
        const subjects =
          sub.topic === 'overview'
            ? [overviewSubject.format(socket.data.viewer.id, sub.location)]
            : sub.topic === 'pins'
              ? [String(socket.data.viewer.id)]
              : sub.topic === 'deviceCards'
                ? sub.serials
                : [sub.serial];
        for (const s of subjects) await leave(socket, sub.topic, s, roomOf(sub.topic, s));
      }
      if (typeof ack === 'function') ack({ ok: true });
    });
    socket.on('disconnect', async () => {
      clearTimeout(socket.data.expiry);
      for (const { topic, subject } of [...socket.data.subs.values()])
        await deps.registry.remove(topic, subject).catch(() => undefined);
      socket.data.subs.clear();
    });
  });

  return {
    io,
    emit: <E extends keyof ServerToClientEvents>(room: string, event: E, payload: Parameters<ServerToClientEvents[E]>[0]) => {
      (io.to(room).emit as (event: string, payload: unknown) => boolean)(event, payload);
    },
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
