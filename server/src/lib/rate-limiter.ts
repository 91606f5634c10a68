/**
 * Counts events per key in a fixed window. In-process by default; the interface lets a Redis-backed
 * limiter replace it when several servers share the load.
 */
export interface RateLimiter {
  /** Seconds until the key may act again, or 0 when it may act now. */
  blockedFor(key: string): Promise<number>;
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function memoryRateLimiter(limit: number, windowSeconds: number, now = () => Date.now()): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && now() - w.start < windowSeconds * 1000) return w;
    if (w) windows.delete(key);
    return undefined;
  };
  return {
    async blockedFor(key) {
      const w = current(key);
      if (!w || w.count < limit) return 0;
      return Math.max(1, Math.ceil((w.start + windowSeconds * 1000 - now()) / 1000));
    },
    async hit(key) {
      const w = current(key);
      if (w) w.count += 1;
      else windows.set(key, { start: now(), count: 1 });
      if (windows.size > 100_000) {
        // Bound memory under a spray of distinct keys: drop the oldest windows.
        for (const k of [...windows.keys()].slice(0, 10_000)) windows.delete(k);
      }
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
