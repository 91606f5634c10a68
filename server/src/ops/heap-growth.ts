import v8 from 'node:v8';
import { ConfigError } from '../config/config.ts';

/**
 * How far a process's JavaScript heap may grow past what its last full collection left alive before the
 * next one (HEAP_GROWING_PERCENT, 50 by default; 0 keeps V8's own choice).
 *
 * Under a high request rate V8 lets the heap grow up to four times its live size between full collections
 * (short-lived answers survive a young collection or two while in flight and are promoted, then wait there).
 * The portal keeps about 60 MB alive with the 10,000-device fleet, so its heap reached 240 MB and its RSS
 * 370-400 MB in a few seconds of a busy REST round, against issue 16's 400 MB budget, and it would go on
 * growing with the host's speed, not with the fleet. With the heap growing by half its live size the same
 * round peaked at 208-245 MB RSS, at the same request rates or higher (PERFORMANCE.md). A collection then comes more
 * often, but the live heap is small and V8 marks it beside the requests (concurrent marking).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** HEAP_GROWING_PERCENT: a whole number from 0 (V8's own growth) to 300; 50 when unset. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv): number {
  const raw = env.HEAP_GROWING_PERCENT?.trim();
  if (!raw) return DEFAULT_HEAP_GROWING_PERCENT;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 300)
    throw new ConfigError(`HEAP_GROWING_PERCENT must be a whole number from 0 to 300: ${raw}`);
  return value;
}

/**
 * Sets the heap's growth for the rest of the process (main.ts at start, and the bench's server processes
 * as main.ts does). V8 reads the setting at every full collection, so it applies from the next one.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
