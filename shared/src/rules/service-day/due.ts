import { LOW_BATTERY_PERCENT, type WarningCode } from '../../constants.ts';
import { isBatchExpired } from '../batch-status.ts';
import { drain } from '../forecast.ts';
import { addDays, zonedTimeToInstant } from '../telemetry.ts';
import { WARNING_TEXT } from '../warnings.ts';
import { mlToLitres } from '../volume.ts';
import { BATTERY_EMPTY_PERCENT, type BatteryForecast } from './battery-forecast.ts';

/**
 * Due work, per device, with the reason in words (issue 48). A device is due when one of these falls
 * before the plan's date plus a margin (DUE_MARGIN_DAYS):
 * - a pump runs dry (the hour-of-week forecast of shared/src/rules/forecast.ts);
 * - the battery trend crosses the low line or the empty line (battery-forecast.ts);
 * - a batch feeding a pump expires, has expired, or is recalled;
 * - a warning that needs hands: the spec's warning codes other than REGISTRATION (a device that never
 *   reported needs its installer, not a refill round; anti-vandalism is a mode, not a reason);
 * - the maintenance flag.
 * "Before the plan's date plus the margin" is read as: before the end of the day after the plan's date,
 * in the site's time zone. With one day of margin a pump that would run dry the day after tomorrow's
 * round is served tomorrow rather than risked on the next day's plan.
 * A device at a site that is visited anyway is topped up when it would be due within TOP_UP_DAYS.
 */
export const DUE_MARGIN_DAYS = 1;
export const TOP_UP_DAYS = 4;
/** How far ahead pumps are drained hour by hour: beyond the top-up window nothing changes the plan. */
const LOOKAHEAD_DAYS = 14;
/** A pump not otherwise due is refilled when at least this share of its reservoir is missing at the ETA. */
export const REFILL_MIN_SHARE = 0.1;

export type Fluid = 'Sunscreen' | 'Sanitizer';

export type DuePump = {
  pump: 1 | 2;
  fluid: Fluid;
  remainingMl: number;
  reservoirMl: number;
  /** Millilitres an hour by hour-of-week slot (forecastRates), null without enough history. */
  rate: readonly number[] | null;
  batch: { batchNo: string; expireDate: string; recalled: boolean } | null;
  /**
   * A reserve the operator refills before, ml (default 0: the pump is due when it runs dry). With a reserve
   * the pump is due when the forecast takes it down to the reserve (a safety stock against a busier day
   * than the forecast's).
   */
  reserveMl?: number;
};

export type DueDevice = {
  serial: string;
  siteId: number;
  /** The site's IANA zone (days and texts are the site's). */
  timeZone: string;
  brandId: number | null;
  brandName: string | null;
  pumps: readonly DuePump[];
  battery: BatteryForecast;
  warnings: readonly string[];
  isMaintenance: boolean;
};

export type DueCode =
  | 'pump_empty'
  | 'pump_runs_dry'
  | 'battery_low'
  | 'battery_empty'
  | 'batch_expiring'
  | 'batch_expired'
  | 'batch_recalled'
  | 'warning'
  | 'maintenance';

/** One thing that will need a technician, and when (epoch ms; `now` for what needs one already). */
export type DueReason = { code: DueCode; text: string; at: number; pump?: 1 | 2 };

const pumpName = (p: { pump: 1 | 2; fluid: Fluid }) => `${p.pump === 1 ? 'Left' : 'Right'} ${p.fluid.toLowerCase()} pump`;
const batchOf = (p: { pump: 1 | 2 }) => `${p.pump === 1 ? 'Left' : 'Right'} pump's batch`;

/** "Tue 14:00" in the site's zone: a reason is read the day before, within the week. */
export function whenText(at: number, timeZone: string): string {
  let f = whenFormats.get(timeZone);
  if (!f)
    whenFormats.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-US', {
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone,
      })),
    );
  return f.format(new Date(at));
}
/** Building a formatter costs far more than using one (a plan of 1,000 sites writes thousands of times). */
const whenFormats = new Map<string, Intl.DateTimeFormat>();

/** The instant work counts as due before: the start of (date + 1 + marginDays) in the site's zone. */
export function dueCutoff(planDate: string, timeZone: string, marginDays = DUE_MARGIN_DAYS): number {
  return zonedTimeToInstant(addDays(planDate, 1 + marginDays), timeZone).getTime();
}

const NOT_HANDS: readonly string[] = ['REGISTRATION'];
/** Warnings a computed reason already says in other words (the same fact twice reads as two jobs). */
const SAID_BY: Partial<Record<WarningCode, DueCode[]>> = {
  BATCH_EXPIRED: ['batch_expired'],
  BATCH_RECALLED: ['batch_recalled'],
  BATTERY: ['battery_low', 'battery_empty'],
};

/** Everything that will need a technician within the lookahead, soonest first. */
export function deviceReasons(d: DueDevice, now: Date | number): DueReason[] {
  const nowMs = new Date(now).getTime();
  const until = nowMs + LOOKAHEAD_DAYS * 86_400_000;
  const out: DueReason[] = [];
  for (const p of d.pumps) {
    if (p.remainingMl <= 0) out.push({ code: 'pump_empty', text: `${pumpName(p)} is empty`, at: nowMs, pump: p.pump });
    else if (p.rate) {
      const reserve = Math.max(0, p.reserveMl ?? 0);
      const { emptyAt } = drain(p.remainingMl - reserve, p.rate, nowMs, until);
      if (emptyAt !== null)
        out.push({
          code: 'pump_runs_dry',
          text: reserve
            ? `${pumpName(p)} falls below ${reserve} ml ${whenText(emptyAt, d.timeZone)}`
            : `${pumpName(p)} runs dry ${whenText(emptyAt, d.timeZone)}`,
          at: emptyAt,
          pump: p.pump,
        });
    }
    if (p.batch) {
      const expiresAt = zonedTimeToInstant(addDays(p.batch.expireDate.slice(0, 10), 1), d.timeZone).getTime();
      if (p.batch.recalled)
        out.push({ code: 'batch_recalled', text: `${batchOf(p)} ${p.batch.batchNo} is recalled`, at: nowMs, pump: p.pump });
      else if (expiresAt <= nowMs)
        out.push({ code: 'batch_expired', text: `${batchOf(p)} ${p.batch.batchNo} has expired`, at: nowMs, pump: p.pump });
      else if (expiresAt < until)
        out.push({
          code: 'batch_expiring',
          text: `${batchOf(p)} ${p.batch.batchNo} expires ${p.batch.expireDate.slice(0, 10)}`,
          at: expiresAt,
          pump: p.pump,
        });
    }
  }
  if (d.battery.kind === 'falling') {
    const { lowAt, emptyAt } = d.battery;
    if (emptyAt.getTime() < until)
      out.push({
        code: 'battery_empty',
        text: `Battery trend reaches ${BATTERY_EMPTY_PERCENT} % ${whenText(Math.max(nowMs, emptyAt.getTime()), d.timeZone)}`,
        at: Math.max(nowMs, emptyAt.getTime()),
      });
    if (lowAt.getTime() < until)
      out.push({
        code: 'battery_low',
        text:
          lowAt.getTime() <= nowMs
            ? `Battery trend is below ${LOW_BATTERY_PERCENT} %`
            : `Battery trend falls below ${LOW_BATTERY_PERCENT} % ${whenText(lowAt.getTime(), d.timeZone)}`,
        at: Math.max(nowMs, lowAt.getTime()),
      });
  }
  const codes = new Set(out.map((r) => r.code));
  for (const w of d.warnings) {
    if (NOT_HANDS.includes(w)) continue;
    if ((SAID_BY[w as WarningCode] ?? []).some((c) => codes.has(c))) continue;
    out.push({ code: 'warning', text: WARNING_TEXT[w as WarningCode] ?? w, at: nowMs });
  }
  if (d.isMaintenance) out.push({ code: 'maintenance', text: 'Maintenance flag is set', at: nowMs });
  return out.sort((a, b) => a.at - b.at || a.text.localeCompare(b.text));
}

/** The reasons that fall before the cutoff: the device is due when there is any. */
export const reasonsBefore = (reasons: readonly DueReason[], cutoff: number) => reasons.filter((r) => r.at < cutoff);

/** A battery swap is on the list when any battery reason is (the trend's or the BATTERY warning). */
export const needsBattery = (reasons: readonly DueReason[]) =>
  reasons.some(
    (r) => r.code === 'battery_low' || r.code === 'battery_empty' || (r.code === 'warning' && r.text === WARNING_TEXT.BATTERY),
  );

export type RefillNeed = { pump: 1 | 2; fluid: Fluid; litres: number; replacesBatch: boolean };

/**
 * What each pump takes at `eta`: the reservoir less what the forecast says is left then. A pump whose
 * batch is expired by the visit or recalled is emptied and filled whole from a usable batch. A pump not
 * itself due is refilled only when at least REFILL_MIN_SHARE of it is missing (a thimbleful is not a job).
 */
export function refillNeeds(
  d: DueDevice,
  reasons: readonly DueReason[],
  now: Date | number,
  eta: Date | number,
  etaDate: string,
): RefillNeed[] {
  const nowMs = new Date(now).getTime();
  const etaMs = new Date(eta).getTime();
  const out: RefillNeed[] = [];
  for (const p of d.pumps) {
    const replace = !!p.batch && (p.batch.recalled || isBatchExpired(p.batch.expireDate, etaDate));
    const left = p.rate && etaMs > nowMs ? drain(p.remainingMl, p.rate, nowMs, etaMs).leftMl : Math.max(0, p.remainingMl);
    const missingMl = replace ? p.reservoirMl : Math.max(0, p.reservoirMl - left);
    const pumpDue = reasons.some((r) => r.pump === p.pump);
    if (missingMl <= 0) continue;
    if (!replace && !pumpDue && missingMl < REFILL_MIN_SHARE * p.reservoirMl) continue;
    out.push({ pump: p.pump, fluid: p.fluid, litres: mlToLitres(missingMl), replacesBatch: replace });
  }
  return out;
}
