/**
 * A CPU load beside the bench (slow-host.ts): burns this process's CPU for `duty` of every 20 ms slice and
 * sleeps the rest, so the host has that much less CPU for the portal, its database and the load generators,
 * spread over the cores by the scheduler like the other tenants of a shared host. (`taskset` on one core
 * is not the same: it halves the cores but leaves each as fast as it was.) The parent sets the duty with
 * { duty } (0 to 1) and ends it with 'stop' or by going away.
 */
import { performance } from 'node:perf_hooks';

const SLICE_MS = 20;
let duty = Number(process.argv[2] ?? 0);
let stopped = false;

process.on('message', (m: { duty?: number } | string) => {
  if (m === 'stop') stopped = true;
  else if (typeof m === 'object' && typeof m.duty === 'number') duty = Math.min(1, Math.max(0, m.duty));
});
process.on('disconnect', () => (stopped = true));

while (!stopped) {
  const until = performance.now() + duty * SLICE_MS;
  while (performance.now() < until) {
    /* burning CPU is the point */
  }
  await new Promise((r) => setTimeout(r, Math.max(1, (1 - duty) * SLICE_MS)));
}
process.exit(0);
