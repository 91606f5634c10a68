/**
 * The pure rules of the telemetry reads of spec section 7 that server and client both use (site-time
 * buckets, usage status, signal bands, calendar dates); the request schemas and answer types are in
 * schemas/telemetry.schema.ts. Kept apart from them, without zod: the browser's map page uses these
 * rules, and a module that builds zod schemas as it loads costs that page their construction even when
 * it uses none of them (a bundler cannot drop a schema built by a helper call).
 *
 * Time: every bucket is cut in the SITE's time zone (device_groups.timezone_id, UTC when null). The
 * bucket boundaries are computed here, once, from the platform's IANA data (Intl); the database only
 * counts rows between those boundaries. A day is local midnight to local midnight (23 or 25 hours on a
 * daylight-saving change day), an hour bucket is one elapsed hour from local midnight, a month is local
 * midnight of the 1st to local midnight of the next 1st. Bucket labels are local ISO strings with the
 * offset in force at the bucket start (2026-03-08T03:00:00-05:00), so a chart labels them in site time
 * and the repeated hour of a fall-back day stays distinguishable (01:00-05:00, then 01:00-06:00).
 */

// ---------------------------------------------------------------- constants

export const FILTER_DATE_TYPES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type FilterDateType = (typeof FILTER_DATE_TYPES)[number];
export const FILTER_DEVICE_TYPES = ['SINGLE', 'ADDRESS', 'DISTRICT', 'ALL'] as const;
export type FilterDeviceType = (typeof FILTER_DEVICE_TYPES)[number];

export const TELEMETRY_LIMITS = {
  /** WEEKLY: 7 daily buckets ending at endDate (start = end minus 6 days; spec section 9). */
  weekDays: 7,
  /** MONTHLY without startDate: from 6 months before endDate (spec section 9). */
  monthlyDefaultMonthsBack: 6,
  /** Longest MONTHLY range, so one call cannot ask for centuries of buckets. */
  monthlyMaxMonths: 120,
  /** Battery chart: the last year by default (spec section 9), at most 5 years per call. */
  batteryDefaultMonthsBack: 12,
  batteryMaxDays: 5 * 366,
  /** More readings than this in the range: one averaged point per local day instead of every reading. */
  batteryMaxPoints: 2000,
  /** SIM log: newest first, at most this many rows (query ?limit=1..200). */
  simLogMax: 200,
  /** Usage status baseline: the device's median day over this many local days; window for sms_status too. */
  usageBaselineDays: 30,
} as const;

/** Weeks start on Monday (spec section 9): ISO weekday 1. Used by calendar grids (the SIM month view), not
 * by WEEKLY, which is a rolling 7 days ending at endDate whatever weekday that is. */
export const WEEK_STARTS_ON = 1;

// ---------------------------------------------------------------- calendar dates ('YYYY-MM-DD')

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MONTH_RE = /^(\d{4})-(\d{2})$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
export const YEAR_MIN = 1970;
export const YEAR_MAX = 2100;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const ymd = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const dateParts = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};

/** A real calendar date 'YYYY-MM-DD' between 1970 and 2100. */
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  if (y < YEAR_MIN || y > YEAR_MAX) return false;
  return ymd(Date.UTC(y, Number(m[2]) - 1, Number(m[3]))) === value;
}

/** A calendar date, or an ISO 8601 date-time (with or without offset) whose date part is a calendar date. */
export function isDateInput(value: string): boolean {
  if (isCalendarDate(value)) return true;
  const m = DATETIME_RE.exec(value);
  if (!m || !isCalendarDate(m[1]!)) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return false;
  return m[5] === undefined || !Number.isNaN(Date.parse(value.replace(' ', 'T')));
}

/**
 * The site-local calendar date of a date input: a plain date is itself; a date-time with an offset (or Z)
 * is an instant, converted to the site's date; a date-time without offset is already site-local time.
 */
export function localDateOfInput(value: string, timeZone: string): string {
  if (isCalendarDate(value)) return value;
  const m = DATETIME_RE.exec(value);
  if (!m) throw new RangeError(`Not a date: ${value}`);
  if (m[5] === undefined) return m[1]!;
  return localDateOf(new Date(value.replace(' ', 'T')), timeZone);
}

export function addDays(date: string, days: number): string {
  const { y, m, d } = dateParts(date);
  return ymd(Date.UTC(y, m - 1, d + days));
}

/** Calendar months later (or earlier), the day clamped to the target month's length (03-31 minus 1 = 02-28). */
export function addMonths(date: string, months: number): string {
  const { y, m, d } = dateParts(date);
  const first = Date.UTC(y, m - 1 + months, 1);
  const last = new Date(Date.UTC(new Date(first).getUTCFullYear(), new Date(first).getUTCMonth() + 1, 0)).getUTCDate();
  return ymd(Date.UTC(new Date(first).getUTCFullYear(), new Date(first).getUTCMonth(), Math.min(d, last)));
}

export const monthStartOf = (date: string): string => `${date.slice(0, 7)}-01`;
export const monthEndOf = (date: string): string => addDays(addMonths(monthStartOf(date), 1), -1);
export const daysBetween = (from: string, to: string): number => {
  const a = dateParts(from);
  const b = dateParts(to);
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
};
const monthsBetween = (from: string, to: string) => {
  const a = dateParts(from);
  const b = dateParts(to);
  return (b.y - a.y) * 12 + (b.m - a.m);
};

/** The Monday on or before a date (weeks start Monday, spec section 9). */
export function weekStartOf(date: string): string {
  const { y, m, d } = dateParts(date);
  const isoDow = ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1; // 1 = Monday .. 7 = Sunday
  return addDays(date, -(isoDow - WEEK_STARTS_ON));
}

// ---------------------------------------------------------------- time zones

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone telemetry of a site is cut in: its timezone_id, or UTC when it has none (or an unknown one). */
export function siteTimeZone(timezoneId: string | null | undefined): string {
  return timezoneId && isTimeZone(timezoneId) ? timezoneId : 'UTC';
}

type Wall = { y: number; m: number; d: number; h: number; mi: number; s: number };
function wallClock(ms: number, timeZone: string): Wall {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { y: out.year!, m: out.month!, d: out.day!, h: out.hour! % 24, mi: out.minute!, s: out.second! };
}

/** Minutes the zone is ahead of UTC at an instant (America/Chicago in winter: -360). */
export function zoneOffsetMinutes(at: Date | number, timeZone: string): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  const w = wallClock(whole, timeZone);
  return Math.round((Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - whole) / 60_000);
}

/**
 * The instant a site-local wall-clock time names. An ambiguous time (the repeated hour of a fall-back day)
 * is its first occurrence; a time that does not exist (inside a spring-forward gap) moves forward by the
 * gap, as clocks do (02:30 on 2026-03-08 in Chicago is 03:30 CDT).
 */
export function zonedTimeToInstant(date: string, timeZone: string, hour = 0, minute = 0): Date {
  const { y, m, d } = dateParts(date);
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  const before = zoneOffsetMinutes(wall - 86_400_000, timeZone);
  const after = zoneOffsetMinutes(wall + 86_400_000, timeZone);
  const valid = [...new Set([before, after])]
    .map((o) => wall - o * 60_000)
    .filter((t) => zoneOffsetMinutes(t, timeZone) * 60_000 === wall - t);
  return new Date(valid.length ? Math.min(...valid) : wall - before * 60_000);
}

/** Site-local ISO 8601 with offset, to the second: 2026-03-08T03:00:00-05:00. */
export function toZonedIso(at: Date | number, timeZone: string): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  const w = wallClock(ms, timeZone);
  const off = zoneOffsetMinutes(ms, timeZone);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The site-local calendar date of an instant. */
export function localDateOf(at: Date | number, timeZone: string): string {
  const w = wallClock(typeof at === 'number' ? at : at.getTime(), timeZone);
  return `${pad(w.y, 4)}-${pad(w.m)}-${pad(w.d)}`;
}

// ---------------------------------------------------------------- buckets

/** [start, end) in site time; `label` is the start as local ISO with offset. */
export type TimeBucket = { start: Date; end: Date; label: string };

const bucket = (start: Date, end: Date, timeZone: string): TimeBucket => ({ start, end, label: toZonedIso(start, timeZone) });

/** The hours of a local day: 24, or 23 / 25 on a daylight-saving change day. */
export function hourBuckets(date: string, timeZone: string): TimeBucket[] {
  const from = zonedTimeToInstant(date, timeZone).getTime();
  const to = zonedTimeToInstant(addDays(date, 1), timeZone).getTime();
  const out: TimeBucket[] = [];
  for (let t = from; t < to; t += 3_600_000) out.push(bucket(new Date(t), new Date(Math.min(t + 3_600_000, to)), timeZone));
  return out;
}

/** One bucket per local day from `first` to `last`, both included. */
export function dayBuckets(first: string, last: string, timeZone: string): TimeBucket[] {
  return calendarBuckets(first, last, (date) => addDays(date, 1), timeZone);
}

/** One bucket per calendar month, from the month of `first` to the month of `last`, both whole. */
export function monthBuckets(first: string, last: string, timeZone: string): TimeBucket[] {
  return calendarBuckets(monthStartOf(first), monthStartOf(last), (month) => addMonths(month, 1), timeZone);
}

/** Buckets from the local midnight of `first` to that of the step after `through`, one per `next` step. */
function calendarBuckets(first: string, through: string, next: (date: string) => string, timeZone: string): TimeBucket[] {
  const out: TimeBucket[] = [];
  let start = zonedTimeToInstant(first, timeZone);
  for (let date = first; date <= through;) {
    const following = next(date);
    const end = zonedTimeToInstant(following, timeZone);
    out.push(bucket(start, end, timeZone));
    start = end;
    date = following;
  }
  return out;
}

/** Boundaries for SQL width_bucket: every bucket start, then the last end. Bucket i (0-based) is i + 1. */
export const bucketThresholds = (buckets: TimeBucket[]): Date[] =>
  buckets.length ? [...buckets.map((b) => b.start), buckets[buckets.length - 1]!.end] : [];

export type RangeProblem = { field: string; message: string };
export type PumpLogPlan = { buckets: TimeBucket[]; firstDate: string; lastDate: string } | { problem: RangeProblem };

/**
 * The buckets of a pump log, from site-local dates (already resolved with localDateOfInput) and the site's
 * today:
 * - DAILY: the hours of todayDate (else endDate, else today);
 * - WEEKLY: the 7 days ending at endDate (else todayDate, else today), start = end minus 6 days: a rolling
 *   week, not a calendar week (so the Monday rule does not apply);
 * - MONTHLY: whole calendar months from the month of startDate to the month of endDate (else todayDate,
 *   else today); without startDate, from 6 months before endDate, i.e. the end month and the 6 before it.
 *   Whole months: the chart's bars are months, and the totals cover exactly the bars shown.
 */
export function pumpLogPlan(
  type: FilterDateType,
  dates: { todayDate?: string | undefined; startDate?: string | undefined; endDate?: string | undefined },
  today: string,
  timeZone: string,
): PumpLogPlan {
  if (type === 'DAILY') {
    const day = dates.todayDate ?? dates.endDate ?? today;
    return { buckets: hourBuckets(day, timeZone), firstDate: day, lastDate: day };
  }
  const end = dates.endDate ?? dates.todayDate ?? today;
  if (type === 'WEEKLY') {
    const start = addDays(end, -(TELEMETRY_LIMITS.weekDays - 1));
    return { buckets: dayBuckets(start, end, timeZone), firstDate: start, lastDate: end };
  }
  const start = dates.startDate ?? addMonths(end, -TELEMETRY_LIMITS.monthlyDefaultMonthsBack);
  if (start > end) return { problem: { field: 'startDate', message: 'The start date must be on or before the end date.' } };
  if (monthsBetween(start, end) + 1 > TELEMETRY_LIMITS.monthlyMaxMonths) {
    return {
      problem: { field: 'startDate', message: `A monthly range may span at most ${TELEMETRY_LIMITS.monthlyMaxMonths} months.` },
    };
  }
  return { buckets: monthBuckets(start, end, timeZone), firstDate: monthStartOf(start), lastDate: monthEndOf(end) };
}

/** The battery chart's days: startDate..endDate, by default the year ending today (spec section 9). */
export function batteryLogRange(
  dates: { startDate?: string | undefined; endDate?: string | undefined },
  today: string,
): { firstDate: string; lastDate: string } | { problem: RangeProblem } {
  const lastDate = dates.endDate ?? today;
  const firstDate = dates.startDate ?? addDays(addMonths(lastDate, -TELEMETRY_LIMITS.batteryDefaultMonthsBack), 1);
  if (firstDate > lastDate)
    return { problem: { field: 'startDate', message: 'The start date must be on or before the end date.' } };
  if (daysBetween(firstDate, lastDate) + 1 > TELEMETRY_LIMITS.batteryMaxDays) {
    return { problem: { field: 'startDate', message: 'The range may span at most 5 years.' } };
  }
  return { firstDate, lastDate };
}

// ---------------------------------------------------------------- usage status and signal bands

export const USAGE_STATUSES = ['LOW USAGE', 'NORMAL', 'HIGH USAGE', 'NO DATA'] as const;
export type UsageStatus = (typeof USAGE_STATUSES)[number];
/** Below half of the device's median day: LOW USAGE; above one and a half times: HIGH USAGE. */
export const USAGE_LOW_RATIO = 0.5;
export const USAGE_HIGH_RATIO = 1.5;

/**
 * Usage status of a period (a day, or an hour with the baseline scaled to an hour) against the device's own
 * baseline (its median day over the 30 local days up to the period shown, days with readings only):
 * - no readings in the period: 'NO DATA' (usage answered as 0);
 * - no baseline (no readings in the window): 'NORMAL';
 * - baseline 0: any use is 'HIGH USAGE';
 * - usage < 50 % of baseline: 'LOW USAGE'; > 150 %: 'HIGH USAGE'; else 'NORMAL'.
 */
export function usageStatus(usageMb: number | null | undefined, baselineMb: number | null | undefined): UsageStatus {
  if (usageMb == null || !Number.isFinite(usageMb)) return 'NO DATA';
  if (baselineMb == null || !Number.isFinite(baselineMb)) return 'NORMAL';
  if (baselineMb <= 0) return usageMb > 0 ? 'HIGH USAGE' : 'NORMAL';
  const ratio = usageMb / baselineMb;
  if (ratio < USAGE_LOW_RATIO) return 'LOW USAGE';
  if (ratio > USAGE_HIGH_RATIO) return 'HIGH USAGE';
  return 'NORMAL';
}

export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** kB to MB (1024), 2 decimals. */
export const kbToMb = (kb: number): number => Math.round((kb / 1024) * 100) / 100;

export const SIGNAL_BANDS = ['no signal', 'poor', 'fair', 'good', 'excellent'] as const;
export type SignalBand = (typeof SIGNAL_BANDS)[number] | 'error' | 'Unavailable';

/**
 * The signal meter's label (spec section 9): below 29 no signal, below 45 poor, below 61 fair, below 77
 * good, 77 or more excellent; 'error' when the device reported none; 'Unavailable' while the device is not
 * registered on the network (warning REGISTRATION), whatever its last reading.
 */
export function signalBand(quality: number | null | undefined, warnings?: readonly string[] | null): SignalBand {
  if (warnings?.includes('REGISTRATION')) return 'Unavailable';
  if (quality == null || !Number.isFinite(quality)) return 'error';
  if (quality < 29) return 'no signal';
  if (quality < 45) return 'poor';
  if (quality < 61) return 'fair';
  if (quality < 77) return 'good';
  return 'excellent';
}
