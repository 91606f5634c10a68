import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis tests run: in CI (CI=true) an unreachable Redis fails the run instead of skipping. */
export async function redisAvailable(): Promise<boolean> {
  const r = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`CI=true and Redis at ${TEST_REDIS_URL} is unreachable: ${(err as Error).message}`, { cause: err });
    return false;
  } finally {
    r.disconnect();
  }
}
