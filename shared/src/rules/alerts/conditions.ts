import { LOW_BATTERY_PERCENT, type WarningCode } from '../../constants.ts';
import { warningText } from '../warnings.ts';
import { forecastText, type Forecast } from '../forecast.ts';
import { daysPastDue } from '../billing.ts';
import { MISSED_CHECKINS_FOR_OFFLINE, offlineAfterMinutes } from '../device.ts';
import type { BatteryForecast } from '../service-day/battery-forecast.ts';
import { ALERT_DEFAULTS, CONDITION_TEXT, isWarningCondition, type AlertCondition, type AlertSettings } from './settings.ts';

/** A condition present now, with its reason in words (what the incident, the mail and the SMS say). */
export type ConditionFinding = { condition: AlertCondition; reason: string };

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Minutes of a device's schedule ('30' or garbage -> the default), as fleet-health's SQL reads them. */
export const scheduleMinutes = (value: string | null | undefined, fallback: number) =>
  value && /^[0-9]+$/.test(value) ? Number(value) : fallback;

/** One check-in cycle of a device: its power-off (sleep) time plus its wake-up time, in minutes. */
export const checkinCycleMinutes = (d: { poweroffTime: string | null; wakeup1Time: string | null }) =>
  scheduleMinutes(d.poweroffTime, 30) + scheduleMinutes(d.wakeup1Time, 5);

/**
 * The schedule-aware offline rule (fleet-health.ts runs the same arithmetic in SQL every minute): a
 * placed device that has reported is offline once it missed MISSED_CHECKINS_FOR_OFFLINE whole cycles
 * of its own schedule plus a grace; a merely late device never crosses the line.
 */
export function offlineSince(
  d: { lastSeenAt: Date | null; poweroffTime: string | null; wakeup1Time: string | null },
  now: Date,
): Date | null {
  if (!d.lastSeenAt) return null;
  const line =
    d.lastSeenAt.getTime() + offlineAfterMinutes(scheduleMinutes(d.poweroffTime, 30), scheduleMinutes(d.wakeup1Time, 5)) * MINUTE;
  return now.getTime() > line ? new Date(line) : null;
}

const hhmm = (at: Date, timeZone: string | null) =>
  new Intl.DateTimeFormat('en-US', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: timeZone ?? 'UTC',
    timeZoneName: 'short',
  }).format(at);

/** A day and time in the site's zone, the zone named ('Dec 1, 06:00 CST'). */
const dayTime = (at: Date, timeZone: string | null) =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: timeZone ?? 'UTC',
    timeZoneName: 'short',
  }).format(at);

/** What the conditions of one device are read from (its row and what the minute job computed). */
export type DeviceConditionInput = {
  warningLists: readonly string[];
  isOnline: boolean;
  lastSeenAt: Date | null;
  poweroffTime: string | null;
  wakeup1Time: string | null;
  /** The site's zone, for the times in the reasons. */
  timeZone: string | null;
  /** Each pump's forecast (absent: not evaluated, e.g. on the check-in path). */
  forecasts?: { pump: 1 | 2; forecast: Forecast }[];
  /** Its battery's forecast (the daily-minimum trend; absent: not evaluated this pass). */
  battery?: BatteryForecast;
  /** Batches feeding its pumps. */
  batches?: { batchNo: string; expireDate: string; isRecalled: boolean }[];
};

/** Conditions a check-in decides: the device's warning codes (spec section 9), each in words. */
export function warningFindings(warningLists: readonly string[]): ConditionFinding[] {
  return warningLists.filter(isWarningCondition).map((code: WarningCode) => ({ condition: code, reason: warningText(code) }));
}

/**
 * Every condition of one device at `now`: the warning codes, and what the minute job evaluates
 * (offline, run-dry, expiring batch). `today` is the day batches are judged on (batchDayOf(now)).
 */
export function deviceFindings(
  d: DeviceConditionInput,
  now: Date,
  settings: Pick<AlertSettings, 'runDryHours' | 'batchExpiringDays'> & Partial<Pick<AlertSettings, 'batteryLowHours'>>,
): ConditionFinding[] {
  const out = warningFindings(d.warningLists);
  const since = d.isOnline ? null : offlineSince(d, now);
  if (since && d.lastSeenAt) {
    const cycle = checkinCycleMinutes(d);
    out.push({
      condition: 'OFFLINE',
      reason: `Offline: no check-in since ${hhmm(d.lastSeenAt, d.timeZone)}, ${MISSED_CHECKINS_FOR_OFFLINE} expected check-ins missed (one every ${cycle} min)`,
    });
  }
  for (const { pump, forecast } of d.forecasts ?? []) {
    if (forecast.kind !== 'forecast' || forecast.beyondHorizon || forecast.days * 24 > settings.runDryHours) continue;
    // An empty pump is already a warning code (the level sensor), and its own critical alert.
    if (forecast.days === 0) continue;
    out.push({
      condition: 'PUMP_RUN_DRY',
      reason: `${pump === 1 ? 'Left' : 'Right'} pump forecast to run dry in ${forecastText(forecast)}`,
    });
  }
  const battery = batteryFinding(d, now, settings.batteryLowHours ?? ALERT_DEFAULTS.batteryLowHours);
  if (battery) out.push(battery);
  const today = new Date(now.toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
  for (const b of d.batches ?? []) {
    if (b.isRecalled) continue; // BATCH_RECALLED, a warning code
    const days = Math.round((Date.parse(`${b.expireDate}T00:00:00Z`) - today) / DAY);
    if (days < 0 || days > settings.batchExpiringDays) continue; // expired: BATCH_EXPIRED
    out.push({
      condition: 'BATCH_EXPIRING',
      reason: `Batch ${b.batchNo} expires on ${b.expireDate} (${days === 0 ? 'today' : days === 1 ? 'in 1 day' : `in ${days} days`})`,
    });
  }
  // One finding per condition: two pumps running dry are one alert, the reasons joined.
  return mergeFindings(out);
}

/**
 * BATTERY_FORECAST: the battery's daily-minimum trend (shared/src/rules/service-day/battery-forecast.ts)
 * crosses the low line (LOW_BATTERY_PERCENT) within `withinHours`. Nothing while the device reports BATTERY
 * already (the low battery is its own alert), nor for a flat or rising trend or too few days.
 */
export function batteryFinding(
  d: Pick<DeviceConditionInput, 'battery' | 'warningLists' | 'timeZone'>,
  now: Date,
  withinHours: number,
): ConditionFinding | null {
  const f = d.battery;
  if (!f || f.kind !== 'falling' || d.warningLists.includes('BATTERY')) return null;
  const hours = (f.lowAt.getTime() - now.getTime()) / 3_600_000;
  if (hours > withinHours) return null;
  const when = hours < 1 ? 'now' : hours < 48 ? `in ${Math.round(hours)} h` : `in ${Math.round(hours / 24)} days`;
  return {
    condition: 'BATTERY_FORECAST',
    reason: `Battery forecast to go below ${LOW_BATTERY_PERCENT} % ${when} (${dayTime(f.lowAt, d.timeZone)}), its daily low falling ${Math.abs(f.slopePerDay).toFixed(1)} points a day`,
  };
}

/** One finding per condition, the reasons of several joined with '; '. */
export function mergeFindings(list: readonly ConditionFinding[]): ConditionFinding[] {
  const by = new Map<AlertCondition, string[]>();
  for (const f of list) by.set(f.condition, [...(by.get(f.condition) ?? []), f.reason]);
  return [...by].map(([condition, reasons]) => ({ condition, reason: [...new Set(reasons)].join('; ') }));
}

/** SUBSCRIPTION_OVERDUE: an account-level condition, from the account's bills (billing.ts statuses). */
export function subscriptionFinding(
  bills: readonly { status: string; dueDate: string | null; name: string }[],
  today: string,
): ConditionFinding | null {
  const overdue = bills.filter((b) => b.status === 'OVERDUE' && b.dueDate);
  if (!overdue.length) return null;
  const worst = overdue.reduce((a, b) => (a.dueDate! < b.dueDate! ? a : b));
  const days = daysPastDue(worst.dueDate!, today);
  return {
    condition: 'SUBSCRIPTION_OVERDUE',
    reason: `Subscription overdue: ${worst.name} was due on ${worst.dueDate} (${days} day${days === 1 ? '' : 's'} ago)`,
  };
}

/** A condition in words (for a rule's list and a digest line). */
export const conditionText = (c: AlertCondition) => (isWarningCondition(c) ? warningText(c) : CONDITION_TEXT[c]);
