import { describe, expect, it } from 'vitest';
import { simulatedClock, realClock } from './clock.ts';
import { batchDayOf, batchStatus, batchWarningState } from './batch-status.ts';
import { isOfflineAt, offlineAfterMinutes } from './device.ts';
import { forecastDaysUntilEmpty, HOURS_PER_WEEK } from './forecast.ts';
import { deviceWarnings } from './warnings.ts';

const START = Date.parse('2026-07-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the simulated clock', () => {
  it('stands still until advanced, and only moves forward', () => {
    const clock = simulatedClock(START);
    expect(clock.now().toISOString()).toBe('2026-07-01T12:00:00.000Z');
    clock.advance(90 * 60_000);
    expect(clock.now().toISOString()).toBe('2026-07-01T13:30:00.000Z');
    clock.set(Date.parse('2026-07-03T00:00:00Z'));
    expect(clock.nowMs()).toBe(Date.parse('2026-07-03T00:00:00Z'));
    expect(() => clock.set(START)).toThrow(/only moves forward/);
    expect(() => clock.advance(-1)).toThrow(/only moves forward/);
  });

  it('runs `speed` times faster than the real clock it reads', () => {
    let real = 1_000_000;
    const clock = simulatedClock(START, { speed: 60, realNow: () => real });
    real += 60_000; // a real minute
    expect(clock.nowMs() - START).toBe(HOUR);
    clock.advance(DAY);
    real += 1_000;
    expect(clock.nowMs() - START).toBe(HOUR + DAY + 60_000);
  });

  it('the real clock is the wall clock', () => {
    expect(Math.abs(realClock.now().getTime() - Date.now())).toBeLessThan(1_000);
  });
});

describe('the simulated clock moves every rule', () => {
  it('offline: a device that misses two check-ins of its own schedule in simulated time', () => {
    const clock = simulatedClock(START);
    const device = { lastSeenAt: clock.nowMs(), poweroffMinutes: 30, wakeupMinutes: 5 };
    expect(offlineAfterMinutes(30, 5)).toBe(80);
    clock.advance(79 * 60_000);
    expect(isOfflineAt(device, clock.now())).toBe(false);
    clock.advance(2 * 60_000);
    expect(isOfflineAt(device, clock.now())).toBe(true);
    // The real wall clock has not moved 81 minutes meanwhile: only the injected clock decides.
    expect(isOfflineAt(device, realClock.now())).toBe(+realClock.now() - START > 80 * 60_000);
  });

  it('batch expiry: the status and the BATCH_EXPIRED warning turn on the simulated day after the expiry date', () => {
    const clock = simulatedClock(Date.parse('2026-08-30T12:00:00Z'));
    const batch = { expireDate: '2026-09-30', inUse: true };
    expect(batchStatus(batch, batchDayOf(clock.now()))).toBe('IN_USE');
    clock.set(Date.parse('2026-08-31T00:00:00Z'));
    expect(batchStatus(batch, batchDayOf(clock.now()))).toBe('ALMOST_EXPIRED');
    clock.set(Date.parse('2026-10-01T00:00:00Z'));
    expect(batchStatus(batch, batchDayOf(clock.now()))).toBe('EXPIRED');
    const warnings = deviceWarnings({
      batteryPercent: 90,
      leftPumpType: 'Sunscreen',
      rightPumpType: 'Unspecified',
      levelSensor1: true,
      levelSensor2: true,
      volumeRemain: 1000,
      volumeRemain2: 0,
      neverReported: false,
      leftBatch: batchWarningState(batch.expireDate, false, batchDayOf(clock.now())),
    });
    expect(warnings).toEqual(['BATCH_EXPIRED']);
  });

  it('forecast: the same history read a simulated day later says a day less', () => {
    // 10 ml in every hour of the week over the window: 240 ml a day.
    const mlBySlot = new Array<number>(HOURS_PER_WEEK).fill(40); // 4 weeks x 10 ml
    const clock = simulatedClock(START);
    const observedFrom = START - 28 * DAY;
    const first = forecastDaysUntilEmpty({ remainingMl: 960, mlBySlot, now: clock.now(), observedFrom });
    clock.advance(DAY);
    const later = forecastDaysUntilEmpty({ remainingMl: 720, mlBySlot, now: clock.now(), observedFrom });
    expect(first).toMatchObject({ kind: 'forecast', days: 4 });
    expect(later).toMatchObject({ kind: 'forecast', days: 3 });
  });
});
