import { describe, expect, it } from 'vitest';
import { batteryForecast, dailyMinimums } from './battery-forecast.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 12); // Saturday noon UTC
const days = (values: number[]) =>
  values.map((percent, i) => ({ date: new Date(NOW - (values.length - 1 - i) * DAY).toISOString().slice(0, 10), percent }));

describe('dailyMinimums', () => {
  it('keeps the lowest reading of each local day (a solar battery swings daily)', () => {
    const readings = [
      { at: '2026-11-27T11:00:00Z', percent: 60 }, // 05:00 in Chicago: dawn low
      { at: '2026-11-27T21:00:00Z', percent: 95 },
      { at: '2026-11-28T05:00:00Z', percent: 58 }, // still 27 Nov in Chicago (23:00)
      { at: '2026-11-28T12:00:00Z', percent: 57 },
    ];
    expect(dailyMinimums(readings, 'America/Chicago')).toEqual([
      { date: '2026-11-27', percent: 58 },
      { date: '2026-11-28', percent: 57 },
    ]);
  });
});

describe('batteryForecast', () => {
  it('a falling trend of 2 points a day from 60 % crosses 50 % in 5 days and 10 % in 25', () => {
    const f = batteryForecast(days([86, 84, 82, 80, 78, 76, 74, 72, 70, 68, 66, 64, 62, 60]), NOW);
    expect(f.kind).toBe('falling');
    if (f.kind !== 'falling') return;
    expect(f.slopePerDay).toBeCloseTo(-2, 6);
    expect(f.percentNow).toBeCloseTo(60, 6);
    expect((f.lowAt.getTime() - NOW) / DAY).toBeCloseTo(5, 6);
    expect((f.emptyAt.getTime() - NOW) / DAY).toBeCloseTo(25, 6);
  });

  it('already below the low line: low now', () => {
    const f = batteryForecast(days([50, 45, 40, 35]), NOW);
    expect(f.kind === 'falling' && f.lowAt.getTime()).toBe(NOW);
  });

  it('flat or rising forecasts nothing', () => {
    expect(batteryForecast(days([70, 71, 69, 70, 70, 71, 69]), NOW)).toMatchObject({ kind: 'none', why: 'flat-or-rising' });
    expect(batteryForecast(days([40, 45, 50, 55]), NOW)).toMatchObject({ kind: 'none', why: 'flat-or-rising' });
  });

  it('needs three days, and only the last 14 count', () => {
    expect(batteryForecast(days([80, 70]), NOW)).toMatchObject({ kind: 'none', why: 'not-enough-data' });
    // A steep fall 3 weeks ago, flat since: flat.
    const old = days([100, 90, 80, 70, 60, 50, 40, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60]);
    expect(batteryForecast(old, NOW).kind).toBe('none');
  });
});
