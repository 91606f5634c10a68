import { Redis, type RedisOptions } from 'ioredis';

/**
 * Every Redis connection of the portal's processes is made here, by what it is for. The profiles differ
 * in what a command does while Redis is unreachable, and that is the choice a caller makes:
 *
 * - `command`: ordinary commands (watch registry, poll state, tick claims, the Socket.IO adapter's and the
 *   emitter's connections): queued while reconnecting, given up after 3 retries so a caller is not held
 *   forever;
 * - `blocking`: BullMQ's queue and worker connections and pub/sub subscribers, which block or listen on
 *   the connection: BullMQ requires `maxRetriesPerRequest: null` (a command waits for the reconnect);
 * - `publish`: fire-and-forget messages (nudges, aggregate invalidations): one retry, a lost message costs
 *   one poll period or one cache lifetime at most;
 * - `fastFail`: the app's request-path client (auth counters, /readyz): no offline queue and a 2 s connect
 *   timeout, so a request that touches Redis while it is down fails at once and falls back (app-redis.ts).
 *
 * Other options (keyPrefix, lazyConnect) are the caller's. The client's 'error' events are the caller's to
 * log: without a listener an unreachable Redis would end the process (ioredis reconnects by itself).
 */
export const REDIS_PROFILES = {
  command: { maxRetriesPerRequest: 3 },
  blocking: { maxRetriesPerRequest: null },
  publish: { maxRetriesPerRequest: 1 },
  fastFail: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 },
} as const satisfies Record<string, RedisOptions>;

export type RedisProfile = keyof typeof REDIS_PROFILES;

export function createRedis(
  url: string,
  profile: RedisProfile,
  options: Pick<RedisOptions, 'keyPrefix' | 'lazyConnect'> = {},
): Redis {
  return new Redis(url, { ...REDIS_PROFILES[profile], ...options });
}
