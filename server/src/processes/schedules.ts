import cron from 'node-cron';
import type { JobName, JobQueue } from '@fleet/workers';
import type { AppContext } from '../context.ts';
import { checkFleetHealth, enqueueSummaries } from '../jobs/index.ts';
import { overdueTick, OVERDUE_TICK_MINUTES } from '../billing/index.ts';
import { everyPeriod } from '../ops/tick-once.ts';

type Log = (m: string, e?: unknown) => void;
type SummaryPeriod = Parameters<typeof enqueueSummaries>[2];

/**
 * Every scheduled tick of the portal, in one place: when each runs (the work itself is its feature's:
 * jobs/fleet-health.ts, jobs/report-schedules.ts, billing/overdue-schedule.ts). The processes that run
 * scheduled work start them: the one-command process (processes/portal.ts, role `all`) and every worker of a
 * scaled run (processes/worker.ts); an API-only server and the gateway do not.
 *
 * - fleet health: every minute (devices that missed their check-ins go offline, pending changes expire);
 * - dispensation summaries: daily at 07:00 and weekly on Monday at 07:00, server time (REPORT_DAILY_CRON,
 *   REPORT_WEEKLY_CRON on a worker; tests tick every few seconds); each summary's idempotency key keeps a
 *   second process or a retry from sending it twice;
 * - the billing overdue check: every OVERDUE_TICK_MINUTES and once at start-up, once per tick across
 *   processes through its job-ledger key.
 *
 * `claim` (a worker's tickClaimer, ops/tick-once.ts) lets one worker of several run each tick at all; with
 * it, fleet health runs on the period's boundaries (`fleetHealthEveryMs`, FLEET_HEALTH_INTERVAL_MS) so every
 * worker names the same slot. Without it (one process) fleet health runs every minute after start.
 * Answers a stop function.
 */
export function startSchedules(
  ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'sessions' | 'log'> & {
    queue: JobQueue<JobName>;
    /**
     * Devices fleet health marked offline: their pins' deltas and their watchers' polls (a device going
     * offline is a change no check-in or write names; issue 46's map hears it this way, not by polling).
     */
    devicesChanged?: (serials: string[]) => void;
  },
  opts: {
    claim?: (tick: string, slot: Date, periodMs?: number) => Promise<boolean>;
    fleetHealthEveryMs?: number;
    daily?: string;
    weekly?: string;
  } = {},
): () => void {
  const stops = [fleetHealth(ctx, opts), reportSchedules(ctx, opts), overdueSchedule(ctx)];
  return () => stops.forEach((stop) => stop());
}

function fleetHealth(
  ctx: { db: AppContext['db']; now: AppContext['now']; log: Log; devicesChanged?: (serials: string[]) => void },
  opts: { claim?: (tick: string, slot: Date, periodMs?: number) => Promise<boolean>; fleetHealthEveryMs?: number },
) {
  const everyMs = opts.fleetHealthEveryMs ?? 60_000;
  const check = async () => {
    const r = await checkFleetHealth(ctx.db, ctx.now());
    const changed = [...new Set([...r.wentOffline, ...r.expiredOn])];
    if (changed.length) ctx.devicesChanged?.(changed);
    if (r.wentOffline.length || r.expiredChanges)
      ctx.log(`fleet health: ${r.wentOffline.length} offline, ${r.expiredChanges} pending changes expired`);
  };
  const claim = opts.claim;
  if (!claim) {
    // The one-command run: a minute after start, then every minute.
    const timer = setInterval(() => check().catch((err) => ctx.log('fleet health check failed', err)), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
  // On the period's boundaries, claimed per period: once per period across the workers, whenever each started.
  return everyPeriod(everyMs, async (slot) => {
    try {
      if (!(await claim('fleet-health', slot, everyMs))) return;
      await check();
    } catch (err) {
      ctx.log('fleet health check failed', err);
    }
  });
}

function reportSchedules(
  ctx: { db: AppContext['db']; now: AppContext['now']; queue: JobQueue<JobName>; log: Log },
  opts: { claim?: (tick: string, slot: Date) => Promise<boolean>; daily?: string; weekly?: string },
) {
  // node-cron hands each run the time it was scheduled for (its `date`, a whole second), the same on every
  // worker; the moment the callback happens to run would differ between workers by their delays.
  const run = (period: SummaryPeriod) => async (cronCtx?: { date?: Date }) => {
    try {
      if (opts.claim && !(await opts.claim(`summary-${period}`, cronCtx?.date ?? new Date(Math.floor(Date.now() / 1000) * 1000))))
        return;
      // The summary's day or week is read on the injected clock (the trigger itself is a real-time timer).
      const n = await enqueueSummaries(ctx.db, ctx.queue, period, ctx.now());
      ctx.log(`${period} summaries queued for ${n} recipients`);
    } catch (err) {
      ctx.log(`${period} summaries failed`, err);
    }
  };
  const tasks = [
    cron.schedule(opts.daily ?? '0 7 * * *', run('daily')),
    cron.schedule(opts.weekly ?? '0 7 * * 1', run('weekly')),
  ];
  return () => tasks.forEach((t) => t.stop());
}

function overdueSchedule(ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'sessions' | 'log'>) {
  const run = () => void overdueTick(ctx).catch((err) => ctx.log('billing: overdue check failed', err));
  const task = cron.schedule(`*/${OVERDUE_TICK_MINUTES} * * * *`, run);
  run();
  return () => task.stop();
}
