import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ApiError } from '../lib/errors.ts';
import type { TelemetryDevice } from './telemetry.repository.ts';
import { telemetryService, type TelemetryServiceDeps } from './telemetry.service.ts';

// 15:00 UTC is 09:00 in Chicago (CST, UTC-6) on 2026-11-22.
const NOW = new Date('2026-11-22T15:00:00Z');
const device: TelemetryDevice = {
  id: 4,
  serial: 'SP240001',
  groupId: 3,
  locationId: 1,
  timezoneId: 'America/Chicago',
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Unspecified',
  warningLists: [],
  signalQuality: 50,
  simcardPhoneNumber: '+15045550100',
  imei: '356938035643809',
  simSerialNumber: '8901260000000000001',
};

type Repo = TelemetryServiceDeps['repo'];
function fakeRepo(over: Partial<Repo> = {}) {
  const seen: { thresholds?: Date[]; remainAt?: Date[] } = {};
  const repo: Repo = {
    device: async (serial) => (serial === device.serial ? device : undefined),
    deviceSet: () => sql`select 4`,
    pumpCounts: async (_set, thresholds) => {
      seen.thresholds = thresholds;
      return [
        { b: 1, pump: 1, n: 3 },
        { b: 10, pump: 1, n: 2 },
        { b: 10, pump: 2, n: 4 },
        { b: 99, pump: 1, n: 7 }, // outside the buckets: counted nowhere
      ];
    },
    remainAt: async (_id, _pump, at) => {
      seen.remainAt = at;
      return at.map((_t, i) => (i === 0 ? null : 812.345));
    },
    batteryCount: async () => 0,
    batteryReadings: async () => [],
    batteryAverages: async () => [],
    usage: async () => [],
    smsLog: async () => [{ direction: 'OUT', message: 'STATUS', at: Date.parse('2026-11-22T14:30:00Z') }],
    smsSummary: async () => ({ lastAt: Date.parse('2026-11-22T14:30:00Z'), smsIn: 2, smsOut: 3, kb: 2048 }),
    ...over,
  };
  return { repo, seen };
}
const distributor = { id: 1, access: 'distributor' } as const;

describe('telemetry service', () => {
  it('answers 404 for a device that is unknown, unplaced or outside the scope', async () => {
    const service = telemetryService({ ...fakeRepo(), now: () => NOW });
    const refused = service.simLog(distributor, 'SP999999', 10);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 404 });
  });

  it('cuts a DAILY pump log into the site-local hours of today, totals over both pumps', async () => {
    const { repo, seen } = fakeRepo();
    const answer = await telemetryService({ repo, now: () => NOW }).pumpLog(distributor, {
      filterDateType: 'DAILY',
      filterDeviceType: 'SINGLE',
      pumpNumber: 1,
      serial: 'SP240001',
    });
    expect(seen.thresholds).toHaveLength(25);
    expect(seen.thresholds![0]!.toISOString()).toBe('2026-11-22T06:00:00.000Z'); // Chicago midnight
    expect(answer.total_left_pump_dispensation).toBe(5);
    expect(answer.total_right_pump_dispensation).toBe(4);
    expect(answer.dispensingDatas).toHaveLength(24);
    expect(answer.dispensingDatas[0]).toEqual({ date: '2026-11-22T00:00:00-06:00', value: 3 });
    expect(answer.dispensingDatas[9]).toEqual({ date: '2026-11-22T09:00:00-06:00', value: 2 });
    // The level line: none before the first reading, 0.1 precision, none for hours not yet begun.
    expect(answer.remainDatas[0]).toEqual({ date: '2026-11-22T00:00:00-06:00', value: null });
    expect(answer.remainDatas[9]!.value).toBe(812.3);
    expect(answer.remainDatas[10]!.value).toBeNull();
  });

  it('answers empty series for the right pump of a device without one, totals kept', async () => {
    const answer = await telemetryService({ ...fakeRepo(), now: () => NOW }).pumpLog(distributor, {
      filterDateType: 'DAILY',
      filterDeviceType: 'SINGLE',
      pumpNumber: 2,
      serial: 'SP240001',
    });
    expect(answer).toEqual({
      total_left_pump_dispensation: 5,
      total_right_pump_dispensation: 4,
      dispensingDatas: [],
      remainDatas: [],
    });
  });

  it('refuses a MONTHLY range that starts after it ends, with a field message', async () => {
    const refused = telemetryService({ ...fakeRepo(), now: () => NOW }).pumpLog(distributor, {
      filterDateType: 'MONTHLY',
      filterDeviceType: 'SINGLE',
      pumpNumber: 1,
      serial: 'SP240001',
      startDate: '2026-11-01',
      endDate: '2026-10-01',
    });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      body: { startDate: ['The start date must be on or before the end date.'] },
    });
  });

  it('gives SMS times and the SIM summary in site time', async () => {
    const service = telemetryService({ ...fakeRepo(), now: () => NOW });
    expect(await service.simLog(distributor, 'SP240001', 10)).toEqual([
      { direction: 'OUT', message: 'STATUS', created_when: '2026-11-22T08:30:00-06:00' },
    ]);
    expect(await service.smsStatus(distributor, 'SP240001')).toEqual({
      simcardPhoneNumber: '+15045550100',
      imei: '356938035643809',
      simSerialNumber: '8901260000000000001',
      signal_quality: 50,
      signal_band: 'fair',
      last_sms_at: '2026-11-22T08:30:00-06:00',
      sms_in_30d: 2,
      sms_out_30d: 3,
      data_used_30d_mb: 2,
    });
  });
});
