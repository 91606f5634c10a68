import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  batteryLogRange,
  bucketThresholds,
  dayBuckets,
  hourBuckets,
  isDateInput,
  kbToMb,
  localDateOfInput,
  median,
  monthBuckets,
  pumpLogPlan,
  pumpLogRequestSchema,
  signalBand,
  simLogQuerySchema,
  siteTimeZone,
  toZonedIso,
  usageStatus,
  weekStartOf,
  zonedTimeToInstant,
  monthDataUsageParamsSchema,
} from '../schemas/telemetry.schema.ts';
import { fieldErrors } from '../schemas/common.ts';

const CHI = 'America/Chicago';

describe('signal bands (spec section 9)', () => {
  it.each([
    [0, 'no signal'],
    [28, 'no signal'],
    [29, 'poor'],
    [44, 'poor'],
    [45, 'fair'],
    [60, 'fair'],
    [61, 'good'],
    [76, 'good'],
    [77, 'excellent'],
    [100, 'excellent'],
  ] as const)('%i is %s', (q, band) => expect(signalBand(q)).toBe(band));

  it("is 'error' without a reading and 'Unavailable' while registering", () => {
    expect(signalBand(null)).toBe('error');
    expect(signalBand(undefined, [])).toBe('error');
    expect(signalBand(80, ['BATTERY', 'REGISTRATION'])).toBe('Unavailable');
    expect(signalBand(null, ['REGISTRATION'])).toBe('Unavailable');
  });
});

describe('usage status', () => {
  it('compares with the median day: < 50 % LOW, > 150 % HIGH, else NORMAL', () => {
    expect(usageStatus(0.49, 1)).toBe('LOW USAGE');
    expect(usageStatus(0.5, 1)).toBe('NORMAL');
    expect(usageStatus(1.5, 1)).toBe('NORMAL');
    expect(usageStatus(1.51, 1)).toBe('HIGH USAGE');
    expect(usageStatus(0, 1)).toBe('LOW USAGE');
  });
  it('has NO DATA without readings, NORMAL without a baseline, HIGH for any use over a zero baseline', () => {
    expect(usageStatus(null, 1)).toBe('NO DATA');
    expect(usageStatus(3, null)).toBe('NORMAL');
    expect(usageStatus(0, 0)).toBe('NORMAL');
    expect(usageStatus(0.01, 0)).toBe('HIGH USAGE');
  });
  it('median and MB rounding', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(kbToMb(1024)).toBe(1);
    expect(kbToMb(1536.4)).toBe(1.5);
    expect(kbToMb(50)).toBe(0.05);
  });
});

describe('calendar dates', () => {
  it('validates dates and date-times', () => {
    expect(isDateInput('2026-03-08')).toBe(true);
    expect(isDateInput('2026-02-29')).toBe(false);
    expect(isDateInput('2026-3-8')).toBe(false);
    expect(isDateInput('1969-12-31')).toBe(false);
    expect(isDateInput('2026-03-08T10:00:00Z')).toBe(true);
    expect(isDateInput('2026-03-08T10:00:00.123-05:00')).toBe(true);
    expect(isDateInput('2026-03-08T10:00')).toBe(true);
    expect(isDateInput('2026-03-08T24:00:00Z')).toBe(false);
    expect(isDateInput('yesterday')).toBe(false);
  });
  it('takes the date part of a date-time in the site zone', () => {
    expect(localDateOfInput('2026-03-08', CHI)).toBe('2026-03-08');
    expect(localDateOfInput('2026-03-09T03:00:00Z', CHI)).toBe('2026-03-08');
    expect(localDateOfInput('2026-03-09T03:00:00Z', 'UTC')).toBe('2026-03-09');
    expect(localDateOfInput('2026-03-09T03:00:00', CHI)).toBe('2026-03-09');
  });
  it('adds days and months, clamping to the month end', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-03-10', -6)).toBe('2025-09-10');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
  });
  it('weeks start Monday', () => {
    expect(weekStartOf('2026-03-08')).toBe('2026-03-02'); // a Sunday
    expect(weekStartOf('2026-03-09')).toBe('2026-03-09'); // a Monday
    expect(weekStartOf('2026-03-11')).toBe('2026-03-09');
  });
});

describe('site time', () => {
  it('maps wall-clock times to instants across daylight saving', () => {
    expect(zonedTimeToInstant('2026-03-08', CHI).toISOString()).toBe('2026-03-08T06:00:00.000Z');
    expect(zonedTimeToInstant('2026-03-09', CHI).toISOString()).toBe('2026-03-09T05:00:00.000Z');
    // 02:30 does not exist on the spring-forward day: it is 03:30 CDT
    expect(zonedTimeToInstant('2026-03-08', CHI, 2, 30).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    // 01:30 happens twice on the fall-back day: the first (CDT)
    expect(zonedTimeToInstant('2026-11-01', CHI, 1, 30).toISOString()).toBe('2026-11-01T06:30:00.000Z');
    expect(toZonedIso(new Date('2026-03-08T08:00:00Z'), CHI)).toBe('2026-03-08T03:00:00-05:00');
    expect(toZonedIso(new Date('2026-03-08T08:00:00Z'), 'UTC')).toBe('2026-03-08T08:00:00+00:00');
    expect(toZonedIso(new Date('2026-03-08T08:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-08T13:30:00+05:30');
  });
  it('falls back to UTC without a (valid) zone', () => {
    expect(siteTimeZone(null)).toBe('UTC');
    expect(siteTimeZone('Not/AZone')).toBe('UTC');
    expect(siteTimeZone(CHI)).toBe(CHI);
  });
});

describe('buckets', () => {
  it('the spring-forward day has 23 hours and skips 02:00', () => {
    const b = hourBuckets('2026-03-08', CHI);
    expect(b).toHaveLength(23);
    expect(b.map((x) => x.label.slice(11, 16))).toEqual([
      '00:00',
      '01:00',
      ...Array.from({ length: 21 }, (_, i) => `${String(i + 3).padStart(2, '0')}:00`),
    ]);
    expect(b[0]!.label).toBe('2026-03-08T00:00:00-06:00');
    expect(b[1]!.label).toBe('2026-03-08T01:00:00-06:00');
    expect(b[2]!.label).toBe('2026-03-08T03:00:00-05:00');
    expect(b[22]!.end.toISOString()).toBe('2026-03-09T05:00:00.000Z');
  });
  it('the fall-back day has 25 hours with 01:00 twice', () => {
    const b = hourBuckets('2026-11-01', CHI);
    expect(b).toHaveLength(25);
    expect(b[1]!.label).toBe('2026-11-01T01:00:00-05:00');
    expect(b[2]!.label).toBe('2026-11-01T01:00:00-06:00');
    expect(b[3]!.label).toBe('2026-11-01T02:00:00-06:00');
    expect(b[24]!.label).toBe('2026-11-01T23:00:00-06:00');
  });
  it('an ordinary day, and UTC, have 24 hours', () => {
    expect(hourBuckets('2026-03-10', CHI)).toHaveLength(24);
    expect(hourBuckets('2026-03-08', 'UTC')).toHaveLength(24);
  });
  it('days are local midnight to local midnight', () => {
    const b = dayBuckets('2026-03-07', '2026-03-09', CHI);
    expect(b.map((x) => (x.end.getTime() - x.start.getTime()) / 3_600_000)).toEqual([24, 23, 24]);
    expect(b.map((x) => x.label)).toEqual([
      '2026-03-07T00:00:00-06:00',
      '2026-03-08T00:00:00-06:00',
      '2026-03-09T00:00:00-05:00',
    ]);
    expect(bucketThresholds(b).map((d) => d.toISOString())).toEqual([
      '2026-03-07T06:00:00.000Z',
      '2026-03-08T06:00:00.000Z',
      '2026-03-09T05:00:00.000Z',
      '2026-03-10T05:00:00.000Z',
    ]);
  });
  it('months are whole local months', () => {
    const b = monthBuckets('2025-10-15', '2026-01-02', CHI);
    expect(b.map((x) => x.label)).toEqual([
      '2025-10-01T00:00:00-05:00',
      '2025-11-01T00:00:00-05:00',
      '2025-12-01T00:00:00-06:00',
      '2026-01-01T00:00:00-06:00',
    ]);
    expect(b[3]!.end.toISOString()).toBe('2026-02-01T06:00:00.000Z');
  });
});

describe('pump log plan', () => {
  it('DAILY: the hours of todayDate', () => {
    const p = pumpLogPlan('DAILY', { todayDate: '2026-03-08' }, '2026-11-22', CHI);
    expect('buckets' in p && p.buckets.length).toBe(23);
  });
  it('WEEKLY: 7 days, start = end minus 6 days', () => {
    const p = pumpLogPlan('WEEKLY', { endDate: '2026-03-10', startDate: '2026-01-01' }, '2026-11-22', CHI);
    if (!('buckets' in p)) throw new Error('problem');
    expect(p.firstDate).toBe('2026-03-04');
    expect(p.buckets.map((b) => b.label.slice(0, 10))).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
  });
  it('MONTHLY: 6 months back from endDate by default, whole months', () => {
    const p = pumpLogPlan('MONTHLY', { endDate: '2026-03-10' }, '2026-11-22', CHI);
    if (!('buckets' in p)) throw new Error('problem');
    expect(p.buckets.map((b) => b.label.slice(0, 7))).toEqual([
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect([p.firstDate, p.lastDate]).toEqual(['2025-09-01', '2026-03-31']);
  });
  it('defaults to the site today, and refuses reversed or huge ranges', () => {
    const p = pumpLogPlan('DAILY', {}, '2026-11-01', CHI);
    expect('buckets' in p && p.buckets.length).toBe(25);
    expect(pumpLogPlan('MONTHLY', { startDate: '2026-04-01', endDate: '2026-03-01' }, '2026-11-22', CHI)).toEqual({
      problem: { field: 'startDate', message: 'The start date must be on or before the end date.' },
    });
    expect('problem' in pumpLogPlan('MONTHLY', { startDate: '1990-01-01', endDate: '2026-03-01' }, '2026-11-22', CHI)).toBe(true);
  });
  it('battery: the year ending today by default', () => {
    expect(batteryLogRange({}, '2026-11-22')).toEqual({ firstDate: '2025-11-23', lastDate: '2026-11-22' });
    expect('problem' in batteryLogRange({ startDate: '2026-02-01', endDate: '2026-01-01' }, '2026-11-22')).toBe(true);
  });
});

describe('request schemas', () => {
  const ok = { filterDateType: 'DAILY', pumpNumber: 1, todayDate: '2026-03-08', filterDeviceType: 'SINGLE', serial: 'SP240001' };
  it('accepts the client payload, blank dates as missing', () => {
    expect(pumpLogRequestSchema.parse({ ...ok, startDate: '', endDate: null, pumpNumber: '2' })).toEqual({
      ...ok,
      pumpNumber: 2,
    });
  });
  it('answers a message per field', () => {
    const r = pumpLogRequestSchema.safeParse({
      filterDateType: 'HOURLY',
      pumpNumber: 3,
      todayDate: '2026-02-30',
      endDate: 'x'.repeat(10_000),
      filterDeviceType: 'WORLD',
    });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)).toEqual({
      filterDateType: ['Choose one of DAILY, WEEKLY, MONTHLY.'],
      pumpNumber: ['Choose pump 1 (left) or 2 (right).'],
      todayDate: ['Enter a valid date as YYYY-MM-DD (or an ISO 8601 date-time), years 1970 to 2100.'],
      endDate: ['Ensure this field has no more than 40 characters.'],
      filterDeviceType: ['Choose one of SINGLE, ADDRESS, DISTRICT, ALL.'],
      serial: ['This field is required.'],
    });
  });
  it('months and limits', () => {
    expect(monthDataUsageParamsSchema.safeParse({ serial: 'S', date: '2026-03' }).success).toBe(true);
    expect(monthDataUsageParamsSchema.safeParse({ serial: 'S', date: '2026-13' }).success).toBe(false);
    expect(simLogQuerySchema.parse({})).toEqual({ limit: 200 });
    expect(simLogQuerySchema.parse({ limit: '5' })).toEqual({ limit: 5 });
    expect(simLogQuerySchema.safeParse({ limit: '201' }).success).toBe(false);
    expect(simLogQuerySchema.safeParse({ limit: 'abc' }).success).toBe(false);
  });
});
