/**
 * The one clock every rule and job reads the time from (issue 47).
 *
 * Real by default (`realClock`). The fleet simulator, the season runner and the benchmarks drive a
 * `simulatedClock` instead: it starts at a given instant and either runs `speed` times faster than real
 * time, or stands still and moves only when told (`advance`, `set`), so a 60-day season passes in minutes
 * and a device that misses check-ins for simulated hours counts as offline.
 *
 * Why our own few lines rather than a fake-timers library: fake timers replace the process's global
 * Date and timers, which the HTTP server, the database driver and the test runner also use; here only the
 * business rules are meant to move, so they take the clock as a dependency and nothing global changes.
 */
export interface Clock {
  now(): Date;
}

/** Wall-clock time. */
export const realClock: Clock = { now: () => new Date() };

export interface SimulatedClock extends Clock {
  /** Milliseconds since the epoch on the simulated clock. */
  nowMs(): number;
  /** Moves the clock forward by `ms` simulated milliseconds (never backwards). */
  advance(ms: number): void;
  /** Sets the clock to an instant; an instant before now is refused (rules assume time only moves on). */
  set(at: Date | number): void;
  /** Simulated milliseconds per real millisecond; 0 stands still between `advance`/`set` calls. */
  readonly speed: number;
}

/**
 * A clock starting at `start`. With `speed` > 0 it runs by itself, `speed` times faster than `realNow`
 * (performance-independent: it reads the real clock it is given); with speed 0 (the default) it only
 * moves when advanced, which is what the in-process season runner and unit tests want.
 */
export function simulatedClock(start: Date | number, opts: { speed?: number; realNow?: () => number } = {}): SimulatedClock {
  const speed = opts.speed ?? 0;
  if (!(speed >= 0) || !Number.isFinite(speed)) throw new Error('speed must be a finite number >= 0');
  const realNow = opts.realNow ?? Date.now;
  let base = +start;
  let realBase = realNow();
  if (!Number.isFinite(base)) throw new Error('start must be a valid instant');
  const nowMs = () => base + (realNow() - realBase) * speed;
  const rebase = (at: number) => {
    base = at;
    realBase = realNow();
  };
  return {
    speed,
    nowMs,
    now: () => new Date(nowMs()),
    advance(ms) {
      if (!(ms >= 0)) throw new Error('a clock only moves forward');
      rebase(nowMs() + ms);
    },
    set(at) {
      const t = +at;
      const current = nowMs();
      if (!(t >= current)) throw new Error(`a clock only moves forward (now ${new Date(current).toISOString()})`);
      rebase(t);
    },
  };
}
