/**
 * How long a pump's fluid lasts (the /maintenance list's order): the device's own dispensing rate by hour
 * of the week over recent weeks, run forward from the remaining volume.
 *
 * Why hour of the week: dispensers are used in rhythms (a beach kiosk is busy on Saturday afternoons and
 * idle at night), so a flat daily average would say a pump lasts until Monday when it runs dry on Sunday.
 * Each of the 168 hours of the week gets its own rate: the millilitres dispensed in that hour over the
 * window divided by how many times that hour occurred in it; the projection then drains the remaining
 * volume hour by hour from now with those rates.
 *
 * Hours are UTC hours of the week (Monday 00:00 UTC is slot 0): observation and projection use the same
 * mapping, so a site's local rhythm is kept whatever its zone (a daylight-saving change moves it by an
 * hour, which a multi-day forecast does not notice). SQL groups pump_events the same way (see `slotSql`).
 */

export const FORECAST_WEEKS = 4;
export const HOURS_PER_WEEK = 168;
/** Less history than a day says nothing about a weekly rhythm. */
export const FORECAST_MIN_HOURS = 24;
/** Beyond a year the forecast is 'more than a year' (a pump nobody uses never runs out). */
export const FORECAST_HORIZON_DAYS = 365;

const HOUR = 3_600_000;

/** The hour-of-week slot of a moment: 0 = Monday 00:00-01:00 UTC, 167 = Sunday 23:00-24:00 UTC. */
export function hourOfWeek(at: Date | number): number {
  const d = new Date(at);
  return ((d.getUTCDay() + 6) % 7) * 24 + d.getUTCHours();
}

/** The same slot in PostgreSQL, for grouping pump_events by it (column: a timestamptz expression). */
export const slotSql = (column: string) =>
  `((extract(isodow from ${column} at time zone 'UTC')::int - 1) * 24 + extract(hour from ${column} at time zone 'UTC')::int)`;

export type ForecastInput = {
  /** Millilitres left in the pump now. */
  remainingMl: number;
  /** Millilitres dispensed in the window, by hour-of-week slot (index 0..167). */
  mlBySlot: readonly number[];
  now: Date | number;
  /** Since when the device has been reporting (its first pump event); the window starts no earlier. */
  observedFrom?: Date | number | null;
  weeks?: number;
};

export type Forecast =
  | {
      kind: 'forecast';
      /** Days until empty (0: empty now); FORECAST_HORIZON_DAYS with beyondHorizon when longer. */
      days: number;
      beyondHorizon: boolean;
      /** Average millilitres a day over the window. */
      mlPerDay: number;
      /** Days of history the rate is from (28 for a full 4-week window). */
      basisDays: number;
      basis: string;
    }
  | { kind: 'not-enough-data'; basisDays: number; basis: string };

/** "the last 4 weeks' rate", or for a younger device "the last 3 days' rate". */
export function basisText(basisDays: number, weeks = FORECAST_WEEKS): string {
  // Whole days: a device whose first dispense was 27.9 days ago has reported for the whole window.
  const days = Math.max(1, Math.round(basisDays));
  if (days >= weeks * 7) return weeks === 1 ? "the last week's rate" : `the last ${weeks} weeks' rate`;
  return days === 1 ? "the last day's rate" : `the last ${days} days' rate`;
}

/** The window the rate is read from: the last `weeks` weeks, or since the device started reporting. */
export function forecastWindow(now: Date | number, observedFrom?: Date | number | null, weeks = FORECAST_WEEKS) {
  const end = new Date(now).getTime();
  const start = Math.max(end - weeks * 7 * 24 * HOUR, observedFrom == null ? -Infinity : new Date(observedFrom).getTime());
  return { start: new Date(start), end: new Date(end) };
}

/**
 * Millilitres an hour for each hour-of-week slot, from the window's history (null: not enough data).
 * The forecast below and the service day's "what is left at the ETA" (remainingAtMl) drain with these.
 */
export function forecastRates(
  input: Omit<ForecastInput, 'remainingMl'>,
): { rate: number[]; mlPerDay: number; basisDays: number; basis: string } | { rate: null; basisDays: number; basis: string } {
  const weeks = input.weeks ?? FORECAST_WEEKS;
  const { start, end } = forecastWindow(input.now, input.observedFrom, weeks);
  const startMs = start.getTime();
  const endMs = end.getTime();
  const spanHours = Math.max(0, (endMs - startMs) / HOUR);
  const basisDays = spanHours / 24;
  const basis = basisText(basisDays, weeks);
  const totalMl = input.mlBySlot.reduce((a, b) => a + (b > 0 ? b : 0), 0);
  if (spanHours < FORECAST_MIN_HOURS || totalMl <= 0) return { rate: null, basisDays, basis };

  // How many hours of each slot the window held (partial hours at its ends count by their fraction).
  const occurrences = new Array<number>(HOURS_PER_WEEK).fill(0);
  for (let t = Math.floor(startMs / HOUR) * HOUR; t < endMs; t += HOUR) {
    const covered = (Math.min(t + HOUR, endMs) - Math.max(t, startMs)) / HOUR;
    if (covered > 0) occurrences[hourOfWeek(t)]! += covered;
  }
  const mlPerDay = (totalMl / spanHours) * 24;
  // An hour of the week the window never held (a device younger than a week) takes the average rate:
  // nothing is known about it, and 0 would promise a pump that never empties.
  const rate = occurrences.map((n, slot) => (n > 0 ? Math.max(0, input.mlBySlot[slot] ?? 0) / n : mlPerDay / 24));
  return { rate, mlPerDay, basisDays, basis };
}

/**
 * Drains `remainingMl` hour by hour from `from` with the slot rates: the instant it is empty (null when it
 * lasts past `until`) and what is left at `until`.
 */
export function drain(
  remainingMl: number,
  rate: readonly number[],
  from: number,
  until: number,
): { emptyAt: number | null; leftMl: number } {
  let left = Math.max(0, remainingMl);
  if (left === 0) return { emptyAt: from, leftMl: 0 };
  let t = from;
  while (t < until) {
    const hourEnd = Math.min(until, Math.floor(t / HOUR) * HOUR + HOUR);
    const use = (rate[hourOfWeek(t)]! * (hourEnd - t)) / HOUR;
    if (use >= left) return { emptyAt: t + (left / use) * (hourEnd - t), leftMl: 0 };
    left -= use;
    t = hourEnd;
  }
  return { emptyAt: null, leftMl: left };
}

/** What the forecast says will remain in a pump at `at` (the service day's refill amount is the reservoir less this). */
export function remainingAtMl(
  remainingMl: number,
  rate: readonly number[] | null,
  now: Date | number,
  at: Date | number,
): number {
  const from = new Date(now).getTime();
  const until = new Date(at).getTime();
  if (!rate || until <= from) return Math.max(0, remainingMl);
  return drain(remainingMl, rate, from, until).leftMl;
}

export function forecastDaysUntilEmpty(input: ForecastInput): Forecast {
  const r = forecastRates(input);
  const { basisDays, basis } = r;
  if (r.rate === null) return { kind: 'not-enough-data', basisDays, basis };
  const { mlPerDay } = r;
  const endMs = new Date(input.now).getTime();
  const remaining = Math.max(0, input.remainingMl);
  if (remaining === 0) return { kind: 'forecast', days: 0, beyondHorizon: false, mlPerDay, basisDays, basis };
  const { emptyAt } = drain(remaining, r.rate, endMs, endMs + FORECAST_HORIZON_DAYS * 24 * HOUR);
  if (emptyAt !== null)
    return { kind: 'forecast', days: (emptyAt - endMs) / (24 * HOUR), beyondHorizon: false, mlPerDay, basisDays, basis };
  return { kind: 'forecast', days: FORECAST_HORIZON_DAYS, beyondHorizon: true, mlPerDay, basisDays, basis };
}

/** The forecast in words: "~3 days at the last 4 weeks' rate", "not enough data". */
export function forecastText(f: Forecast): string {
  if (f.kind === 'not-enough-data') return 'not enough data';
  if (f.beyondHorizon) return `more than a year at ${f.basis}`;
  if (f.days === 0) return 'empty now';
  if (f.days < 1) return `less than a day at ${f.basis}`;
  const days = Math.round(f.days);
  return `~${days} ${days === 1 ? 'day' : 'days'} at ${f.basis}`;
}
