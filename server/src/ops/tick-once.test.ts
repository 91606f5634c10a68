import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyPeriod, tickClaimer, type TickStore } from './tick-once.ts';

/**
 * The claimer and the period ticker against a store that does what Redis' SET ... EX ... NX does (the same
 * scenario runs against a real Redis in tests/integration/tick-once.test.ts).
 */
function fakeRedis() {
  const keys = new Map<string, { value: string; ttl: number }>();
  const store = {
    async set(key: string, value: string, ex: 'EX', ttl: number, nx: 'NX') {
      expect([ex, nx]).toEqual(['EX', 'NX']);
      if (keys.has(key)) return null;
      keys.set(key, { value, ttl });
      return 'OK';
    },
  } as unknown as TickStore;
  return { store, keys };
}

describe('tickClaimer', () => {
  it('lets one caller of several win a tick and slot; another slot or tick is claimed anew', async () => {
    const { store, keys } = fakeRedis();
    const a = tickClaimer(store, { pid: 1 });
    const b = tickClaimer(store, { pid: 2 });
    const slot = new Date('2026-03-02T07:00:00.000Z');
    expect(await a('summary-daily', slot)).toBe(true);
    expect(await b('summary-daily', new Date(slot))).toBe(false);
    expect(await b('summary-weekly', slot)).toBe(true);
    expect(await b('summary-daily', new Date('2026-03-03T07:00:00.000Z'))).toBe(true);
    expect(keys.get('tick:summary-daily:2026-03-02T07:00:00.000Z')).toEqual({ value: '1', ttl: 86_400 });
    // A key outlives its period: a period of three days keeps its claim six days.
    await a('long', slot, 3 * 86_400_000);
    expect(keys.get('tick:long:2026-03-02T07:00:00.000Z')!.ttl).toBe(6 * 86_400);
  });
});

describe('everyPeriod with the claimer: two workers started at different times, clocks apart', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-02T10:00:00.250Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('runs the tick once per period in total, on the period boundaries', async () => {
    const { store } = fakeRedis();
    const period = 1000;
    const runs: { worker: string; slot: string }[] = [];
    const attempts: string[] = [];
    const worker = (name: string, skewMs: number) => {
      const claim = tickClaimer(store);
      return everyPeriod(
        period,
        async (slot) => {
          attempts.push(name);
          if (await claim('fleet-health', slot, period)) runs.push({ worker: name, slot: slot.toISOString() });
        },
        // This worker's own clock: ahead of or behind the other's by a few tens of milliseconds.
        { now: () => Date.now() + skewMs },
      );
    };
    const stopA = worker('A', 0);
    // B starts 370 ms later, its clock 40 ms ahead; C 610 ms after A, its clock 25 ms behind.
    await vi.advanceTimersByTimeAsync(370);
    const stopB = worker('B', 40);
    await vi.advanceTimersByTimeAsync(240);
    const stopC = worker('C', -25);
    // To 10:00:05.500: the boundaries of seconds 1 to 5 have passed.
    await vi.advanceTimersByTimeAsync(5_500 - 250 - 610);
    stopA();
    stopB();
    stopC();

    // Every worker fired every period (3 x 5), and the tick ran once per period.
    expect(attempts).toHaveLength(15);
    expect(runs.map((r) => r.slot)).toEqual([1, 2, 3, 4, 5].map((s) => `2026-03-02T10:00:0${s}.000Z`));
    // Nothing fires after stop.
    await vi.advanceTimersByTimeAsync(3 * period);
    expect(attempts).toHaveLength(15);
  });

  it('names the boundary it was set for when its timer fires late, and skips periods missed entirely', async () => {
    const slots: string[] = [];
    const stop = everyPeriod(1000, (slot) => void slots.push(slot.toISOString()), {
      now: () => Date.now(),
      // Timers that fire 300 ms late, but the second 2.5 s late (a blocked event loop): fired at 10:00:04.5, it
      // names 10:00:02, and the next is 10:00:05 (03 and 04 were missed).
      setTimer: (cb, ms) => setTimeout(cb, ms + (slots.length === 1 ? 2_500 : 300)),
    });
    await vi.advanceTimersByTimeAsync(6_000);
    stop();
    expect(slots).toEqual(['2026-03-02T10:00:01.000Z', '2026-03-02T10:00:02.000Z', '2026-03-02T10:00:05.000Z']);
  });
});
