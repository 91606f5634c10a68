import { describe, expect, it } from 'vitest';
import { HOURS_PER_WEEK } from '../forecast.ts';
import {
  deviceReasons,
  dueCutoff,
  needsBattery,
  reasonsBefore,
  refillNeeds,
  TOP_UP_DAYS,
  type DueDevice,
  type DuePump,
} from './due.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-28T18:00:00Z'); // Saturday 12:00 in Chicago
const TZ = 'America/Chicago';
/** 10 ml an hour around the clock: 240 ml a day. */
const flat = (mlPerHour: number) => new Array<number>(HOURS_PER_WEEK).fill(mlPerHour);
const pump = (over: Partial<DuePump> = {}): DuePump => ({
  pump: 1,
  fluid: 'Sunscreen',
  remainingMl: 1500,
  reservoirMl: 1500,
  rate: flat(10),
  batch: null,
  ...over,
});
const device = (over: Partial<DueDevice> = {}): DueDevice => ({
  serial: 'D1',
  siteId: 1,
  timeZone: TZ,
  brandId: 1,
  brandName: 'Sunny',
  pumps: [pump()],
  battery: { kind: 'none', why: 'flat-or-rising', slopePerDay: 0 },
  warnings: [],
  isMaintenance: false,
  ...over,
});
const due = (d: DueDevice, date = '2026-11-29') => reasonsBefore(deviceReasons(d, NOW), dueCutoff(date, TZ));

describe('dueCutoff', () => {
  it('is the start of the day after the plan date plus the margin, in the site zone', () => {
    expect(new Date(dueCutoff('2026-11-29', TZ)).toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(new Date(dueCutoff('2026-11-29', TZ, TOP_UP_DAYS)).toISOString()).toBe('2026-12-04T06:00:00.000Z');
  });
});

describe('due work with reasons in words', () => {
  it('a pump that runs dry before the cutoff is due, in words with the site-local time', () => {
    // 480 ml at 10 ml/h: empty 48 h later, Monday 12:00 Chicago (before Tue 00:00).
    const r = due(device({ pumps: [pump({ remainingMl: 480 })] }));
    expect(r.map((x) => [x.code, x.text])).toEqual([['pump_runs_dry', 'Left sunscreen pump runs dry Mon 12:00']]);
    expect(r[0]!.at).toBe(NOW + 48 * HOUR);
  });

  it('with a reserve, a pump is due when its forecast falls to the reserve', () => {
    // 720 ml at 10 ml/h lasts past the cutoff (72 h), but falls to 250 ml after 47 h: Mon 11:00.
    const d = (reserveMl?: number) => device({ pumps: [pump({ remainingMl: 720, ...(reserveMl ? { reserveMl } : {}) })] });
    expect(due(d())).toEqual([]);
    const r = due(d(250));
    expect(r.map((x) => [x.code, x.text])).toEqual([['pump_runs_dry', 'Left sunscreen pump falls below 250 ml Mon 11:00']]);
    expect(r[0]!.at).toBe(NOW + 47 * HOUR);
  });

  it('a pump that lasts past the cutoff is not due, but is a top-up within 4 days', () => {
    const d = device({ pumps: [pump({ remainingMl: 1000 })] }); // 100 h: Wed 16:00
    expect(due(d)).toEqual([]);
    expect(reasonsBefore(deviceReasons(d, NOW), dueCutoff('2026-11-29', TZ, TOP_UP_DAYS)).map((x) => x.code)).toEqual([
      'pump_runs_dry',
    ]);
  });

  it('an empty pump, a recalled or expired batch, a batch expiring by the cutoff', () => {
    const d = device({
      pumps: [
        pump({ remainingMl: 0, batch: { batchNo: 'B-1', expireDate: '2026-11-29', recalled: false } }),
        pump({ pump: 2, fluid: 'Sanitizer', batch: { batchNo: 'B-2', expireDate: '2026-11-01', recalled: true } }),
      ],
    });
    expect(due(d).map((x) => x.text)).toEqual([
      'Left sunscreen pump is empty',
      "Right pump's batch B-2 is recalled",
      "Left pump's batch B-1 expires 2026-11-29",
    ]);
    const expired = device({ pumps: [pump({ batch: { batchNo: 'B-3', expireDate: '2026-11-27', recalled: false } })] });
    expect(due(expired).map((x) => x.text)).toEqual(["Left pump's batch B-3 has expired"]);
    const later = device({ pumps: [pump({ batch: { batchNo: 'B-4', expireDate: '2026-12-20', recalled: false } })] });
    expect(due(later)).toEqual([]);
  });

  it('warnings that need hands (not REGISTRATION), the maintenance flag', () => {
    const d = device({ warnings: ['REGISTRATION', 'PUMP_SENSOR', 'FAILED_REQUEST'], isMaintenance: true });
    expect(due(d).map((x) => x.text)).toEqual(['Failed request', 'Maintenance flag is set', 'Pump sensor fault']);
    expect(due(device({ warnings: ['REGISTRATION'] }))).toEqual([]);
  });

  it('a falling battery trend is due when it crosses the low line by the cutoff, and asks for a battery', () => {
    const d = device({
      battery: {
        kind: 'falling',
        slopePerDay: -5,
        percentNow: 55,
        lowAt: new Date(NOW + 24 * HOUR),
        emptyAt: new Date(NOW + 9 * 24 * HOUR),
      },
    });
    const r = due(d);
    expect(r.map((x) => x.text)).toEqual(['Battery trend falls below 50 % Sun 12:00']);
    expect(needsBattery(r)).toBe(true);
    // The BATTERY warning alone asks for a battery too, and is not said twice beside the trend.
    expect(needsBattery(due(device({ warnings: ['BATTERY'] })))).toBe(true);
    expect(deviceReasons({ ...d, warnings: ['BATTERY'] }, NOW).filter((x) => x.text === 'Low battery')).toEqual([]);
  });
});

describe('refillNeeds', () => {
  it('is the reservoir less what the forecast leaves at the ETA, in litres', () => {
    const d = device({ pumps: [pump({ remainingMl: 480 })] });
    const r = due(d);
    // ETA 24 h from now: 480 - 240 = 240 ml left, 1260 ml missing.
    expect(refillNeeds(d, r, NOW, NOW + 24 * HOUR, '2026-11-29')).toEqual([
      { pump: 1, fluid: 'Sunscreen', litres: 1.26, replacesBatch: false },
    ]);
  });

  it('an expired or recalled batch is replaced whole; a nearly full pump that is not due is left', () => {
    const d = device({
      pumps: [
        pump({ remainingMl: 1400, rate: null, batch: { batchNo: 'OLD', expireDate: '2026-11-01', recalled: false } }),
        pump({ pump: 2, fluid: 'Sanitizer', remainingMl: 1450, rate: null }),
      ],
    });
    expect(refillNeeds(d, due(d), NOW, NOW + HOUR, '2026-11-29')).toEqual([
      { pump: 1, fluid: 'Sunscreen', litres: 1.5, replacesBatch: true },
    ]);
  });
});
