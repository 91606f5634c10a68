import cron from 'node-cron';
import { and, eq, sql } from 'drizzle-orm';
import { mlToFlOz, roundVolume } from '@fleet/shared';
import type { JobName, JobQueue } from '@fleet/workers';
import { accessOf, deviceScope } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

export type SummaryPeriod = 'daily' | 'weekly';

/** The previous calendar day, or the previous Monday-to-Sunday week, in UTC dates. */
export function summaryWindow(period: SummaryPeriod, now: Date): { from: string; until: string } {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (period === 'daily') {
    const y = new Date(today.getTime() - 86_400_000);
    return { from: day(y), until: day(y) };
  }
  const isoDow = (today.getUTCDay() + 6) % 7; // Monday 0
  const thisMonday = new Date(today.getTime() - isoDow * 86_400_000);
  return { from: day(new Date(thisMonday.getTime() - 7 * 86_400_000)), until: day(new Date(thisMonday.getTime() - 86_400_000)) };
}

/**
 * Enqueues one summary mail per subscribed, active user for the period, each computed in that user's
 * own scope. The idempotency key (period, user, window) makes a second scheduler, a second process or a
 * retry send nothing twice.
 */
export async function enqueueSummaries(db: Db, queue: JobQueue<JobName>, period: SummaryPeriod, now = new Date()): Promise<number> {
  const flag = period === 'daily' ? users.notifyDailyDispensation : users.notifyWeeklyReport;
  const recipients = await db.select().from(users).where(and(eq(users.activated, true), eq(flag, true)));
  const { from, until } = summaryWindow(period, now);
  let queued = 0;
  for (const u of recipients) {
    const viewer = { id: u.id, access: accessOf(u) };
    const scope = deviceScope(viewer) ?? sql`true`;
    const res = (await db.execute(sql`
      select g.name, count(distinct devices.id)::int as devices,
             count(e.id)::int as dispenses,
             coalesce(sum(e.volume_ml) filter (where (e.pump_number = 1 and devices.left_pump_type = 'Sunscreen') or (e.pump_number = 2 and devices.right_pump_type = 'Sunscreen')), 0)::float8 as sun_ml,
             coalesce(sum(e.volume_ml) filter (where (e.pump_number = 1 and devices.left_pump_type = 'Sanitizer') or (e.pump_number = 2 and devices.right_pump_type = 'Sanitizer')), 0)::float8 as san_ml
      from devices
      join device_groups g on g.id = devices.group_id
      left join pump_events e on e.device_id = devices.id
           and e.occurred_at >= ${from}::date and e.occurred_at < ${until}::date + 1
      where ${scope}
      group by g.id, g.name
      order by g.name`)) as unknown as { rows: { name: string; devices: number; dispenses: number; sun_ml: number; san_ml: number }[] };
    const toFlOz = (ml: number) => roundVolume(mlToFlOz(ml), 1);
    await queue.enqueue(
      'dispensation-summary',
      {
        to: u.email,
        name: u.username,
        period,
        from,
        until,
        sites: res.rows.map((r) => ({ name: r.name, devices: r.devices, dispenses: r.dispenses, sunscreenFlOz: toFlOz(r.sun_ml), sanitizerFlOz: toFlOz(r.san_ml) })),
      },
      { idempotencyKey: `summary:${period}:${u.id}:${from}` },
    );
    queued++;
  }
  return queued;
}

/** Daily at 07:00 and weekly on Monday at 07:00 (server time). Every process may run them: keys dedupe. */
export function startReportSchedules(db: Db, queue: JobQueue<JobName>, log: (m: string, e?: unknown) => void) {
  const run = (period: SummaryPeriod) => () =>
    void enqueueSummaries(db, queue, period).then(
      (n) => log(`${period} summaries queued for ${n} recipients`),
      (err) => log(`${period} summaries failed`, err),
    );
  const tasks = [cron.schedule('0 7 * * *', run('daily')), cron.schedule('0 7 * * 1', run('weekly'))];
  return () => tasks.forEach((t) => t.stop());
}
