import type { Redis } from 'ioredis';

/**
 * Lets exactly one of several worker processes run a scheduled tick: every worker's cron fires, the
 * first to SET the tick's key (its name and the second it is due, NX) runs it, the others skip. Keys
 * expire after a day. Clocks of workers differ by far less than the whole seconds a slot spans here; the
 * tick's work is idempotent anyway (job ledger keys), so this keeps the work from being done twice,
 * not correctness from depending on it.
 */
export function tickClaimer(redis: Redis, opts: { now?: () => Date; slotMs?: number; onClaimed?: (tick: string, slot: string) => void } = {}) {
  const slotMs = opts.slotMs ?? 1000;
  return async (tick: string): Promise<boolean> => {
    const at = (opts.now ?? (() => new Date()))().getTime();
    // Rounded to the nearest slot: cron fires a few ms after its second on one worker, a few before on another.
    const slot = new Date(Math.round(at / slotMs) * slotMs).toISOString();
    const won = (await redis.set(`tick:${tick}:${slot}`, String(process.pid), 'EX', 86_400, 'NX')) === 'OK';
    if (won) opts.onClaimed?.(tick, slot);
    return won;
  };
}
