import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { and, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { rooms, serialSchema, type ClientToServerEvents, type ServerToClientEvents, type Subscription, type SubscriptionTopic } from '@fleet/shared';
import type { WatchRegistry } from '@fleet/workers';
import { deviceScope } from '../access/scope.ts';
import type { AuthService, Viewer } from '../auth/auth.service.ts';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { ApiError } from '../lib/errors.ts';

type SocketData = { viewer: Viewer; subs: Map<string, { topic: SubscriptionTopic; subject: string }> };
type FleetSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type FleetIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const serial = serialSchema;
const subscriptionSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('device'), serial }),
  z.object({ topic: z.literal('deviceCards'), serials: z.array(serial).min(1).max(20_000) }),
  z.object({ topic: z.literal('simLog'), serial }),
  z.object({ topic: z.literal('overview') }),
]);

/**
 * The push gateway: a browser authenticates its socket with the same token as REST and subscribes to
 * what it shows. Every subscription is authorised with the same scope rule as REST (a client cannot
 * watch a device outside its brands); accepted subjects enter the watch registry the pollers read.
 */
export function attachRealtime(
  httpServer: http.Server,
  deps: { db: Db; auth: AuthService; registry: WatchRegistry; redis?: { pub: Redis; sub: Redis; channel?: string }; log?: (m: string, e?: unknown) => void },
) {
  const io: FleetIo = new Server(httpServer, { path: '/socket.io', serveClient: false, transports: ['websocket', 'polling'] });
  if (deps.redis) io.adapter(createAdapter(deps.redis.pub, deps.redis.sub, deps.redis.channel ? { key: deps.redis.channel } : {}));

  io.use(async (socket, next) => {
    try {
      const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : '';
      socket.data.viewer = await deps.auth.authenticate(token ? `Token ${token}` : undefined);
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
    if (socket.data.subs.has(key)) return;
    socket.data.subs.set(key, { topic, subject });
    await socket.join(room);
    await deps.registry.add(topic, subject);
  }

  async function leave(socket: FleetSocket, topic: SubscriptionTopic, subject: string, room: string) {
    const key = `${topic}:${subject}`;
    if (!socket.data.subs.delete(key)) return;
    await socket.leave(room);
    await deps.registry.remove(topic, subject);
  }

  const roomOf = (topic: SubscriptionTopic, subject: string) =>
    topic === 'device' ? rooms.device(subject) : topic === 'deviceCards' ? rooms.deviceCards(subject) : topic === 'simLog' ? rooms.simLog(subject) : rooms.overview(Number(subject));

  io.on('connection', (socket) => {
    socket.on('subscribe', async (raw, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        const parsed = subscriptionSchema.safeParse(raw);
        if (!parsed.success) return reply({ ok: false, error: 'Invalid subscription.' });
        const sub = parsed.data as Subscription;
        const viewer = socket.data.viewer;
        if (sub.topic === 'overview') {
          await join(socket, 'overview', String(viewer.id), rooms.overview(viewer.id));
          return reply({ ok: true, subscribed: [`overview:${viewer.id}`] });
        }
        const wanted = sub.topic === 'deviceCards' ? [...new Set(sub.serials)] : [sub.serial];
        const allowed = await allowedSerials(viewer, wanted);
        const refused = wanted.filter((s) => !allowed.has(s));
        if (sub.topic !== 'deviceCards' && refused.length) return reply({ ok: false, error: 'No device with this serial.', refused });
        for (const s of wanted.filter((x) => allowed.has(x))) await join(socket, sub.topic, s, roomOf(sub.topic, s));
        return reply(refused.length ? { ok: false, error: 'Some devices are outside your scope.', refused } : { ok: true, subscribed: wanted.map((s) => `${sub.topic}:${s}`) });
      } catch (err) {
        deps.log?.('subscribe failed', err);
        reply({ ok: false, error: 'Something went wrong.' });
      }
    });
    socket.on('unsubscribe', async (raw, ack) => {
      const parsed = subscriptionSchema.safeParse(raw);
      if (parsed.success) {
        const sub = parsed.data as Subscription;
        const subjects = sub.topic === 'overview' ? [String(socket.data.viewer.id)] : sub.topic === 'deviceCards' ? sub.serials : [sub.serial];
        for (const s of subjects) await leave(socket, sub.topic, s, roomOf(sub.topic, s));
      }
      if (typeof ack === 'function') ack({ ok: true });
    });
    socket.on('disconnect', async () => {
      for (const { topic, subject } of [...socket.data.subs.values()]) await deps.registry.remove(topic, subject).catch(() => undefined);
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
