import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { everyPeriod, tickClaimer } from '../../server/src/ops/tick-once.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

/**
 * The scheduled-tick claim of `start:worker` (server/src/ops/tick-once.ts) on a real Redis: three workers,
 * each with its own connection, started at different moments and with clocks tens of milliseconds
 * apart, tick every 400 ms for a few periods; every one of them fires every period, the tick runs once a
 * period. (server/src/ops/tick-once.test.ts runs the same against a stand-in, with fake timers.)
 */
const up = await redisAvailable();

describe.skipIf(!up)('scheduled ticks across workers on one Redis', () => {
  const prefix = `tick-test-${crypto.randomBytes(4).toString('hex')}:`;
  const connections: Redis[] = [];
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    const plain = new Redis(TEST_REDIS_URL);
    const keys = await plain.keys(`${prefix}*`);
    if (keys.length) await plain.del(...keys);
    plain.disconnect();
  });

  it('runs the fleet-health tick once per period although each worker fires it', async () => {
    const period = 400;
    const attempts = new Map<string, string[]>();
    const wins = new Map<string, string[]>();
    const worker = (name: string, skewMs: number) => {
      const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
      connections.push(redis);
      const claim = tickClaimer(redis);
      return everyPeriod(
        period,
        async (slot) => {
          const at = slot.toISOString();
          attempts.set(at, [...(attempts.get(at) ?? []), name]);
          if (await claim('fleet-health', slot, period)) wins.set(at, [...(wins.get(at) ?? []), name]);
        },
        { now: () => Date.now() + skewMs },
      );
    };
    const stops = [worker('A', 0)];
    await new Promise((r) => setTimeout(r, 130));
    stops.push(worker('B', 35));
    await new Promise((r) => setTimeout(r, 110));
    stops.push(worker('C', -20));
    await new Promise((r) => setTimeout(r, period * 6));
    stops.forEach((stop) => stop());
    await new Promise((r) => setTimeout(r, 100));

    // The periods every worker fired in (the first and last may have seen only some of them).
    const full = [...attempts].filter(([, names]) => names.length === 3).map(([slot]) => slot);
    expect(full.length).toBeGreaterThanOrEqual(4);
    for (const slot of attempts.keys()) expect(wins.get(slot), slot).toHaveLength(1);
    // Slots are period boundaries.
    for (const slot of attempts.keys()) expect(Date.parse(slot) % period).toBe(0);
  });
});
