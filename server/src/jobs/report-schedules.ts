import { and, eq } from 'drizzle-orm';
import { addDays, localDateOf, roundVolume, siteTimeZone, weekStartOf } from '@fleet/shared';
import type { JobName, JobQueue } from '@fleet/workers';
import { accessOf, deviceScope } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { reportBuilder, type ReportDeviceRow, reportsRepository } from '../reports/index.ts';
import { telemetryRepository } from '../telemetry/index.ts';

export type SummaryPeriod = 'daily' | 'weekly';
type Window = { from: string; until: string };
type SummarySite = {
  name: string;
  devices: number;
  dispenses: number;
  sunscreenFlOz: number;
  sanitizerFlOz: number;
} & Partial<Window>;

/**
 * The previous calendar day, or the previous Monday-to-Sunday week, of the date it is at `now` in `timeZone`:
 * 'yesterday' for a site is the day before its own today, so a site never reports a day it has not finished.
 */
export function summaryWindow(period: SummaryPeriod, now: Date, timeZone = 'UTC'): Window {
  const today = localDateOf(now, timeZone);
  if (period === 'daily') return { from: addDays(today, -1), until: addDays(today, -1) };
  const thisMonday = weekStartOf(today);
  return { from: addDays(thisMonday, -7), until: addDays(thisMonday, -1) };
}

/**
 * Enqueues one summary mail per subscribed, active user for the period, built by the report builder (the
 * figures of POST /report) over the user's devices on a site, each site over its own calendar days in its
 * zone. The mail's dates are those most devices share; a site whose days differ (a zone where it is still
 * the day before) carries its own. The idempotency key (period, user, window) makes a second scheduler, a
 * second process or a retry send nothing twice.
 */
export async function enqueueSummaries(
  db: Db,
  queue: JobQueue<JobName>,
  period: SummaryPeriod,
  now = new Date(),
): Promise<number> {
  const repo = reportsRepository(db);
  const builder = reportBuilder({ repo, telemetry: telemetryRepository(db), now: () => now });
  const flag = period === 'daily' ? users.notifyDailyDispensation : users.notifyWeeklyReport;
  const recipients = await db
    .select()
    .from(users)
    .where(and(eq(users.activated, true), eq(flag, true)));
  let queued = 0;
  for (const u of recipients) {
    const found = await repo.siteDevices(deviceScope({ id: u.id, access: accessOf(u) }));
    const byWindow = new Map<string, { window: Window; devices: ReportDeviceRow[] }>();
    for (const d of found) {
      const window = summaryWindow(period, now, siteTimeZone(d.timezoneId));
      const key = `${window.from}:${window.until}`;
      byWindow.set(key, { window, devices: [...(byWindow.get(key)?.devices ?? []), d] });
    }
    const groups = [...byWindow.values()].sort(
      (a, b) => b.devices.length - a.devices.length || b.window.from.localeCompare(a.window.from),
    );
    const main = groups[0]?.window ?? summaryWindow(period, now);
    const sites = new Map<number, SummarySite>();
    for (const { window, devices } of groups) {
      const siteOf = new Map(devices.map((d) => [d.serial, d]));
      const own = window.from === main.from && window.until === main.until ? {} : window;
      for (const row of (await builder.reportOf(devices, window.from, window.until)).devices) {
        const d = siteOf.get(row.serial)!;
        const site = sites.get(d.siteId!) ?? {
          name: d.siteName ?? '',
          devices: 0,
          dispenses: 0,
          sunscreenFlOz: 0,
          sanitizerFlOz: 0,
          ...own,
        };
        site.devices += 1;
        site.dispenses += row.left_dispensed + row.right_dispensed;
        site.sunscreenFlOz += row.sunscreen_fl_oz;
        site.sanitizerFlOz += row.sanitizer_fl_oz;
        sites.set(d.siteId!, site);
      }
    }
    const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
    await queue.enqueue(
      'dispensation-summary',
      {
        to: u.email,
        name: u.username,
        period,
        ...main,
        sites: [...sites.values()]
          .sort((a, b) => collator.compare(a.name, b.name))
          .map((s) => ({ ...s, sunscreenFlOz: roundVolume(s.sunscreenFlOz, 1), sanitizerFlOz: roundVolume(s.sanitizerFlOz, 1) })),
      },
      { idempotencyKey: `summary:${period}:${u.id}:${main.from}` },
    );
    queued++;
  }
  return queued;
}
