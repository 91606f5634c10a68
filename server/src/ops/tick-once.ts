import type { Redis } from 'ioredis';

/** The one Redis call the claimer makes (a fake stands in for it in the unit test). */
export type TickStore = Pick<Redis, 'set'>;

/**
 * Lets exactly one of several worker processes run a scheduled tick. Every worker fires the tick and
 * names the slot it belongs to: the time the tick was due, the same on every worker whenever it started
 * (a cron's scheduled second, `everyPeriod`'s period boundary). The first to SET the key of the tick's
 * name and slot (NX) runs it, the others skip; keys expire after a day (or two periods, if longer).
 *
 * The slot must not come from the moment a worker's own timer happened to fire: workers started at
 * different times fire a `setInterval` at different offsets within the period, and a slot taken from
 * that moment (even rounded to the second) differs per worker, so every worker won (two workers over five
 * periods ran the fleet-health check ten times). The tick's work is idempotent anyway (job ledger keys),
 * so this keeps the work from being done twice, not correctness from depending on it.
 */
export function tickClaimer(store: TickStore, opts: { onClaimed?: (tick: string, slot: string) => void; pid?: number } = {}) {
  return async (tick: string, slot: Date, periodMs = 0): Promise<boolean> => {
    const at = slot.toISOString();
    const ttl = Math.max(86_400, Math.ceil((2 * periodMs) / 1000));
    const won = (await store.set(`tick:${tick}:${at}`, String(opts.pid ?? process.pid), 'EX', ttl, 'NX')) === 'OK';
    if (won) opts.onClaimed?.(tick, at);
    return won;
  };
}

/** The period boundary at or before `ms`. */
export const periodStart = (ms: number, periodMs: number) => Math.floor(ms / periodMs) * periodMs;

/**
 * Runs `fn` at every multiple of `periodMs` on the clock (00:01:00, 00:02:00... for a minute), not
 * `periodMs` after the process started: every worker's tick for one period then names the same slot,
 * the boundary, whichever worker started when. A timer that fires late (a blocked event loop) still names
 * the boundary it was set for; periods missed entirely are skipped, not caught up. Answers a stop function.
 */
export function everyPeriod(
  periodMs: number,
  fn: (slot: Date) => unknown,
  opts: { now?: () => number; setTimer?: (cb: () => void, ms: number) => unknown; clearTimer?: (t: unknown) => void } = {},
): () => void {
  if (!(periodMs > 0)) throw new Error(`everyPeriod: period ${periodMs} ms`);
  const now = opts.now ?? Date.now;
  const setTimer = opts.setTimer ?? ((cb, ms) => setTimeout(cb, ms));
  const clearTimer = opts.clearTimer ?? ((t) => clearTimeout(t as NodeJS.Timeout));
  let stopped = false;
  let last = -Infinity;
  let timer: unknown;
  const arm = () => {
    if (stopped) return;
    const t = now();
    // The next boundary after now, and never the one just run again (a timer may fire a hair early).
    const next = Math.max(periodStart(t, periodMs) + periodMs, last + periodMs);
    timer = setTimer(() => {
      last = next;
      try {
        void Promise.resolve(fn(new Date(next))).catch(() => undefined);
      } finally {
        arm();
      }
    }, next - t);
  };
  arm();
  return () => {
    stopped = true;
    clearTimer(timer);
  };
}
