type Scheduler = { yield?: () => Promise<void> };

/**
 * Ends the current task and resumes in a new one, letting the browser handle input and paint in
 * between (the web's "yield to the main thread"): `scheduler.yield()` where the browser has it (its
 * continuation runs before other queued tasks), else a MessageChannel message (no 4 ms timer clamp).
 *
 * The client's heavier model modules start with `await yieldToBrowser()` (top-level await): a chunk's
 * modules are otherwise evaluated in one task, and building their effector units (748 at start, 351 more
 * in the map page's chunk) was one task of 190-345 ms at start and 93-131 ms for the map page's chunk under
 * a 4x CPU slowdown (tests/perf/map-trace.ts), Lighthouse counting every millisecond over 50 as blocking
 * time. Each such module's body, and what imports it, now runs in a task of its own (PERFORMANCE.md).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A pause for work done a slice at a time: it yields (yieldToBrowser) only once `budgetMs` have passed since
 * the last yield, so each task holds as many slices as fit in the budget on this machine. A fixed number of
 * slices a task was calibrated on one host: on a host twice as slow (`/healthz` 2,166 against 3,800 req/s)
 * the pin feed's 2,000-line slices were tasks of 75-180 ms under Lighthouse's 4x CPU slowdown, which counts
 * every millisecond over 50 as blocking. Time is read with performance.now(), so the slowdown counts too.
 */
export function yieldWhenDue(budgetMs = TASK_BUDGET_MS, yieldNow: () => Promise<void> = yieldToBrowser): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await yieldNow();
    since = performance.now();
  };
}

/**
 * The work a sliced task does before it yields. Lighthouse counts a task's time over 50 ms as blocking, and
 * its default run does not slow the page down: it loads it at full speed and multiplies each task it saw by
 * 4 (its simulated mobile CPU). So a slice is kept under 12.5 ms as it runs: at 30 ms, the pin feed's parse
 * and packing at 100,000 devices were about ten tasks Lighthouse read as 70-157 ms each, 600 ms or so of
 * blocking time, beside the bench's calibrated load. Under DevTools' own 4x slowdown
 * (tests/perf/map-trace.ts) the same budget only means more, shorter tasks; a yield costs well under 1 ms.
 */
export const TASK_BUDGET_MS = 10;
