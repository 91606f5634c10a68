import { LOW_BATTERY_PERCENT } from '../../constants.ts';
import { addDays, localDateOf, zonedTimeToInstant } from '../telemetry.ts';

/**
 * When a device's battery crosses the low line (LOW_BATTERY_PERCENT, the spec's BATTERY warning) and the
 * empty line, from that device's own discharge trend.
 *
 * Why the daily minimum: the batteries are solar-charged and swing every day (full by afternoon, lowest
 * at dawn), so the raw readings' trend says little; the lowest reading of each day is what runs the device
 * flat. The trend is a least-squares line through the last BATTERY_TREND_DAYS daily minimums. A flat or
 * rising line forecasts nothing: the battery keeps up with its load.
 */
export const BATTERY_TREND_DAYS = 14;
export const BATTERY_EMPTY_PERCENT = 10;
/** Fewer days than this make no trend (two points always make a line). */
export const BATTERY_TREND_MIN_DAYS = 3;
/** A fall slower than this (percentage points a day, 1.4 points over 14 days) is flat: readings jitter. */
export const BATTERY_FLAT_SLOPE = -0.1;

const DAY = 86_400_000;

export type BatteryReading = { at: Date | number | string; percent: number };
export type DailyMinimum = { date: string; percent: number };

export type BatteryForecast =
  | { kind: 'none'; why: 'not-enough-data' | 'flat-or-rising'; slopePerDay: number | null }
  | {
      kind: 'falling';
      /** Percentage points a day (negative). */
      slopePerDay: number;
      /** The trend's value now. */
      percentNow: number;
      /** When the trend is below the low line (now, when it already is). */
      lowAt: Date;
      /** When the trend reaches the empty line. */
      emptyAt: Date;
    };

/** The lowest reading of each calendar day (in `timeZone`), oldest first. */
export function dailyMinimums(readings: readonly BatteryReading[], timeZone: string): DailyMinimum[] {
  const byDay = new Map<string, number>();
  for (const r of readings) {
    const day = localDateOf(new Date(r.at), timeZone);
    const seen = byDay.get(day);
    if (seen === undefined || r.percent < seen) byDay.set(day, r.percent);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, percent]) => ({ date, percent }));
}

/**
 * The battery forecast from daily minimums (only the last BATTERY_TREND_DAYS days before `now` count).
 * Each day's minimum stands at that day's noon in `timeZone`.
 */
export function batteryForecast(days: readonly DailyMinimum[], now: Date | number, timeZone = 'UTC'): BatteryForecast {
  const nowMs = new Date(now).getTime();
  const today = localDateOf(nowMs, timeZone);
  const first = addDays(today, -(BATTERY_TREND_DAYS - 1));
  const points = days
    .filter((d) => d.date >= first && d.date <= today && Number.isFinite(d.percent))
    .map((d) => ({ x: (zonedTimeToInstant(d.date, timeZone, 12).getTime() - nowMs) / DAY, y: d.percent }));
  if (points.length < BATTERY_TREND_MIN_DAYS) return { kind: 'none', why: 'not-enough-data', slopePerDay: null };
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const slope = sxx > 0 ? sxy / sxx : 0;
  if (slope >= BATTERY_FLAT_SLOPE) return { kind: 'none', why: 'flat-or-rising', slopePerDay: slope };
  const percentNow = my - slope * mx; // the line at x = 0 (now)
  const crossing = (line: number) => new Date(nowMs + Math.max(0, (line - percentNow) / slope) * DAY);
  return {
    kind: 'falling',
    slopePerDay: slope,
    percentNow,
    lowAt: crossing(LOW_BATTERY_PERCENT),
    emptyAt: crossing(BATTERY_EMPTY_PERCENT),
  };
}
