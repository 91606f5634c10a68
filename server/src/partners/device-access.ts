import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import { rooms } from '@fleet/shared';
import type { Server } from 'socket.io';
import type { DeviceAccessNotifier } from './partners.service.ts';

/** What can move sockets out of rooms: the push server, or the Socket.IO Redis emitter (same call). */
type Target = { in(room: string): { socketsLeave(rooms: string[]): unknown } };

/**
 * Takes devices out of one user's live subscriptions when a distributor removes them from that market
 * partner: every socket of the user (room `user:{id}`, joined on connect) leaves the devices' rooms
 * (`device:`, `devices:`, `simLog:`), so the next push of those devices no longer reaches it. A new
 * subscription is checked against the scope again, so it is refused.
 *
 * Like the session hub (realtime/sessions.ts): the HTTP app is built before its push server starts, so
 * the push server attaches itself; with the Redis adapter `io.in(room)` reaches every process's sockets,
 * and a process without a push server reaches them through the Redis emitter on the adapter's channel.
 */
export function deviceAccessHub(opts: { redisUrl?: string | undefined; redisPrefix?: string; log?: (m: string, e?: unknown) => void } = {}) {
  let io: Server | undefined;
  let emitter: { redis: Redis; emitter: Emitter } | undefined;

  function target(): Target | undefined {
    if (io) return io as unknown as Target;
    if (!opts.redisUrl) return undefined;
    if (!emitter) {
      const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 3 });
      redis.on('error', (err) => opts.log?.('device access emitter: redis error', err));
      emitter = { redis, emitter: new Emitter(redis, { key: `${opts.redisPrefix ?? 'fleet:'}socket.io` }) };
    }
    return emitter.emitter as unknown as Target;
  }

  return {
    async revokeDevices(userId: number, serials: string[]) {
      const t = target();
      if (!t || !serials.length) return;
      await t.in(rooms.user(userId)).socketsLeave(serials.flatMap((s) => [rooms.device(s), rooms.deviceCards(s), rooms.simLog(s)]));
    },
    attach(server: Server) {
      io = server;
    },
    detach(server: Server) {
      if (io === server) io = undefined;
    },
    close() {
      emitter?.redis.disconnect();
      emitter = undefined;
    },
  } satisfies DeviceAccessNotifier & Record<string, unknown>;
}
export type DeviceAccessHub = ReturnType<typeof deviceAccessHub>;
