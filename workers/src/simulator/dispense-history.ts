/**
 * What the portal knows of each pump's dispensing, on the simulated clock: millilitres per hour, kept for
 * the forecast's window (4 weeks). The planner's forecast reads its hour-of-week rates from here with the
 * shared `forecastRates`, as the portal reads them from pump_events. The season's in-process portal and
 * the demo's crews record what the units delivered in their check-ins.
 */
import { FORECAST_WEEKS, forecastRates, hourOfWeek, HOURS_PER_WEEK } from '@fleet/shared';

const HOUR = 3_600_000;
const WINDOW_HOURS = FORECAST_WEEKS * 7 * 24;

export class DispenseHistory {
  /** serial:pump -> hour since the epoch -> ml. */
  private readonly hours = new Map<string, Map<number, number>>();

  /** `since`: when observation started (the forecast's window starts no earlier). */
  constructor(private since: number) {}

  add(serial: string, pump: 1 | 2, at: number, ml: number) {
    const key = `${serial}:${pump}`;
    let h = this.hours.get(key);
    if (!h) this.hours.set(key, (h = new Map()));
    const hour = Math.floor(at / HOUR);
    h.set(hour, (h.get(hour) ?? 0) + ml);
  }

  /**
   * Fills the hours from `from` to `to` with `mlPerHour(t)` (a fleet that was running before the
   * simulation started: the demo's crews start from the units' usual rhythm) and moves `since` back.
   */
  prime(serial: string, pump: 1 | 2, from: number, to: number, mlPerHour: (t: number) => number) {
    for (let t = Math.floor(from / HOUR) * HOUR; t < to; t += HOUR) {
      const ml = mlPerHour(t + HOUR / 2);
      if (ml > 0) this.add(serial, pump, t, ml);
    }
    this.since = Math.min(this.since, from);
  }

  /** Millilitres an hour by hour-of-week slot over the window before `now` (null: not enough history). */
  rate(serial: string, pump: 1 | 2, now: number): number[] | null {
    const h = this.hours.get(`${serial}:${pump}`);
    const mlBySlot = new Array<number>(HOURS_PER_WEEK).fill(0);
    const first = Math.floor(now / HOUR) - WINDOW_HOURS;
    if (h)
      for (const [hour, ml] of h) {
        if (hour < first) h.delete(hour);
        else if (hour * HOUR < now) mlBySlot[hourOfWeek(hour * HOUR)]! += ml;
      }
    return forecastRates({ mlBySlot, now, observedFrom: this.since }).rate;
  }
}
