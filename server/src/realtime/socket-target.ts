import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { createRedis } from '@fleet/workers';
import type { Server } from 'socket.io';

/**
 * Reaches sockets in rooms from anywhere in a process: its own push server once attached (with the
 * Redis adapter, `io.in(room)` reaches every process's sockets), else with Redis the Socket.IO Redis
 * emitter on the adapter's channel (a worker, a job runner, or this process before its push server
 * started), else nothing: without Redis there is one process and no push server means no sockets.
 *
 * The HTTP app is built before its push server starts, so the push server attaches itself
 * (realtime.ts); the session ender and the partners' device access hub build on this.
 */
export function socketTarget<T>(opts: {
  redisUrl?: string | undefined;
  redisPrefix?: string;
  name: string;
  log?: (m: string, e?: unknown) => void;
}) {
  let io: Server | undefined;
  let emitter: { redis: Redis; emitter: Emitter } | undefined;
  return {
    /** The push server or the emitter, typed by the caller with the calls it makes (both offer `in(room)...`). */
    get(): T | undefined {
      if (io) return io as unknown as T;
      if (!opts.redisUrl) return undefined;
      if (!emitter) {
        const redis = createRedis(opts.redisUrl, 'command');
        redis.on('error', (err) => opts.log?.(`${opts.name} emitter: redis error`, err));
        // The same channel key as the adapter in realtime.ts.
        emitter = { redis, emitter: new Emitter(redis, { key: `${opts.redisPrefix ?? 'fleet:'}socket.io` }) };
      }
      return emitter.emitter as unknown as T;
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
  };
}
