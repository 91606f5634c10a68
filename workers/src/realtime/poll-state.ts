import type { Redis } from 'ioredis';

/** Last snapshot per subject, and the lock that makes one poll per subject per period across processes. */
export interface PollState {
  /** True when this caller should poll the subject now (nobody polled it within the period). */
  claim(key: string, periodMs: number): Promise<boolean>;
  getSnapshot(key: string): Promise<unknown | undefined>;
  setSnapshot(key: string, value: unknown, ttlMs: number): Promise<void>;
  dropSnapshot(key: string): Promise<void>;
}

export function memoryPollState(now = () => Date.now()): PollState {
  const claimed = new Map<string, number>();
  const snapshots = new Map<string, unknown>();
  return {
    async claim(key, periodMs) {
      const t = now();
      const last = claimed.get(key);
      // Due a tick early (as the Redis lock), so ticks of 250 ms keep the period instead of overshooting it.
      if (last !== undefined && t - last < periodMs - Math.min(250, periodMs * 0.1)) return false;
      claimed.set(key, t);
      return true;
    },
    async getSnapshot(key) {
      return snapshots.get(key);
    },
    async setSnapshot(key, value) {
      snapshots.set(key, value);
    },
    async dropSnapshot(key) {
      snapshots.delete(key);
      claimed.delete(key);
    },
  };
}

/** Redis: `SET poll:{key} NX PX period` elects one poller per period; snapshots live beside it. */
export function redisPollState(redis: Redis): PollState {
  return {
    async claim(key, periodMs) {
      // A little under the period (a tick's worth), so whichever process is due next can claim it again.
      return (await redis.set(`poll:${key}`, '1', 'PX', Math.max(100, periodMs - Math.min(250, periodMs * 0.1)), 'NX')) === 'OK';
    },
    async getSnapshot(key) {
      const v = await redis.get(`snap:${key}`);
      return v == null ? undefined : JSON.parse(v);
    },
    async setSnapshot(key, value, ttlMs) {
      await redis.set(`snap:${key}`, JSON.stringify(value), 'PX', ttlMs);
    },
    async dropSnapshot(key) {
      await redis.del(`snap:${key}`);
    },
  };
}
