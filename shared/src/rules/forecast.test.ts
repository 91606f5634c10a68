import { describe, expect, it } from 'vitest';
import { basisText, forecastDaysUntilEmpty, forecastText, HOURS_PER_WEEK, hourOfWeek } from './forecast.ts';

const HOUR = 3_600_000;
/** Monday 2026-11-23 00:00 UTC: slot 0. */
const MONDAY = Date.UTC(2026, 10, 23);
const slots = (fill: (slot: number) => number) => Array.from({ length: HOURS_PER_WEEK }, (_, s) => fill(s));

describe('hourOfWeek', () => {
  it('counts from Monday 00:00 UTC', () => {
    expect(hourOfWeek(MONDAY)).toBe(0);
    expect(hourOfWeek(MONDAY + 25 * HOUR + 59 * 60_000)).toBe(25);
    expect(hourOfWeek(MONDAY - 1)).toBe(167); // Sunday 23:59
  });
});

describe('forecastDaysUntilEmpty', () => {
  it('a flat rate: 100 ml a day for 4 weeks, 300 ml left, lasts 3 days', () => {
    // 4 weeks: each slot occurs 4 times; 100 ml/day = 100/24 ml an hour.
    const f = forecastDaysUntilEmpty({ remainingMl: 300, mlBySlot: slots(() => (4 * 100) / 24), now: MONDAY });
    expect(f).toMatchObject({ kind: 'forecast', beyondHorizon: false, basisDays: 28, basis: "the last 4 weeks' rate" });
    if (f.kind !== 'forecast') throw new Error();
    expect(f.days).toBeCloseTo(3, 6);
    expect(f.mlPerDay).toBeCloseTo(100, 6);
    expect(forecastText(f)).toBe("~3 days at the last 4 weeks' rate");
  });

  it('follows the week: use only on Saturdays runs dry on the Saturday, not after an average', () => {
    // 480 ml every Saturday (slots 120..143, 20 ml an hour) over 4 weeks; 240 ml left on a Monday.
    const saturday = (s: number) => (s >= 120 && s < 144 ? 4 * 20 : 0);
    const f = forecastDaysUntilEmpty({ remainingMl: 240, mlBySlot: slots(saturday), now: MONDAY });
    if (f.kind !== 'forecast') throw new Error(f.kind);
    // 5 idle days to Saturday 00:00, then 12 hours at 20 ml.
    expect(f.days).toBeCloseTo(5.5, 6);
    // A flat average (480/7 ml a day) would have said 3.5 days.
    expect(f.mlPerDay).toBeCloseTo(480 / 7, 6);
  });

  it('a young device: the rate is from the days it has, and says so', () => {
    const now = MONDAY + 3 * 24 * HOUR;
    // 3 days observed, 60 ml every hour of them (slots 0..71 once each).
    const f = forecastDaysUntilEmpty({
      remainingMl: 60 * 24 * 2,
      mlBySlot: slots((s) => (s < 72 ? 60 : 0)),
      now,
      observedFrom: MONDAY,
    });
    expect(f).toMatchObject({ kind: 'forecast', basisDays: 3, basis: "the last 3 days' rate" });
    // Thursday onwards has no history: those hours take the average rate (60 ml), so 2 days.
    expect(f.kind === 'forecast' && f.days).toBeCloseTo(2, 6);
    expect(forecastText(f)).toBe("~2 days at the last 3 days' rate");
  });

  it('a pump used only on weekdays empties after whole weeks', () => {
    const weekdays = (s: number) => (s < 120 ? 4 * 10 : 0); // 10 ml an hour Monday to Friday
    const f = forecastDaysUntilEmpty({ remainingMl: 1200 * 2 + 10, mlBySlot: slots(weekdays), now: MONDAY });
    if (f.kind !== 'forecast') throw new Error();
    // 1200 ml a week: two whole weeks, then 1 hour of the third Monday.
    expect(f.days).toBeCloseTo(14 + 1 / 24, 6);
  });

  it('beyond a year is said so', () => {
    const f = forecastDaysUntilEmpty({ remainingMl: 1e9, mlBySlot: slots(() => 1), now: MONDAY });
    expect(f).toMatchObject({ kind: 'forecast', beyondHorizon: true, days: 365 });
    expect(forecastText(f)).toBe("more than a year at the last 4 weeks' rate");
  });

  it('not enough data: no dispensing, or less than a day of history', () => {
    expect(forecastDaysUntilEmpty({ remainingMl: 500, mlBySlot: slots(() => 0), now: MONDAY })).toMatchObject({
      kind: 'not-enough-data',
    });
    const young = forecastDaysUntilEmpty({
      remainingMl: 500,
      mlBySlot: slots(() => 5),
      now: MONDAY,
      observedFrom: MONDAY - 10 * HOUR,
    });
    expect(young.kind).toBe('not-enough-data');
    expect(forecastText(young)).toBe('not enough data');
  });

  it('an empty pump is empty now; less than a day reads so', () => {
    const rate = slots(() => 40);
    expect(forecastText(forecastDaysUntilEmpty({ remainingMl: 0, mlBySlot: rate, now: MONDAY }))).toBe('empty now');
    expect(forecastText(forecastDaysUntilEmpty({ remainingMl: 50, mlBySlot: rate, now: MONDAY }))).toBe(
      "less than a day at the last 4 weeks' rate",
    );
  });

  it('starts mid-hour with what is left of that hour', () => {
    // 10 ml an hour everywhere (40 over 4 weeks); now is 30 minutes into an hour; 5 ml lasts 30 minutes.
    const f = forecastDaysUntilEmpty({ remainingMl: 5, mlBySlot: slots(() => 40), now: MONDAY + 30 * 60_000 });
    if (f.kind !== 'forecast') throw new Error();
    expect(f.days * 24).toBeCloseTo(0.5, 6);
  });
});

describe('basisText', () => {
  it('names the window', () => {
    expect(basisText(28)).toBe("the last 4 weeks' rate");
    expect(basisText(1.4)).toBe("the last day's rate");
    expect(basisText(7, 1)).toBe("the last week's rate");
  });
});
