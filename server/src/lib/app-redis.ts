import { createRedis } from '@fleet/workers';

/**
 * The app's own Redis client (auth counters, /readyz), undefined without REDIS_URL. No offline queue:
 * while Redis is down a command fails at once instead of waiting for a reconnect, so a request that
 * touches Redis answers promptly (the counters fall back to memory, /readyz says 'down'). The error
 * listener keeps an unreachable Redis from crashing the process; ioredis reconnects by itself.
 */
export function appRedis(url: string | undefined, log: (m: string, e?: unknown) => void) {
  if (!url) return undefined;
  const client = createRedis(url, 'fastFail');
  let lastLogged = 0;
  client.on('error', (err) => {
    // One line per 10 s while it is down, not one per reconnect attempt.
    if (Date.now() - lastLogged > 10_000) {
      lastLogged = Date.now();
      log('redis error', err);
    }
  });
  return {
    client,
    async ping(): Promise<boolean> {
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    close: () => client.disconnect(),
  };
}
