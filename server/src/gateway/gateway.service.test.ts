import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/errors.ts';
import { keyHash } from '../lib/crypto.ts';
import type { CheckinCalls, DeviceRow, GatewayRepository, NewDeviceRow, Stored } from './gateway.repository.ts';
import { gatewayService } from './gateway.service.ts';

const KEY = 'k'.repeat(32);
const NOW = new Date('2026-11-22T15:00:00Z');
const basic = (serial: string, secret: string) => `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`;

const stored = (over: Partial<Stored> = {}): Stored => ({
  id: 4,
  batch_id: 7,
  poweroff_time: '30',
  wakeup1_time: '5',
  is_pause: false,
  is_activated: true,
  is_enabled_maintenance: false,
  is_enabled_vandalism: true,
  left_pump_type: 'Sunscreen',
  right_pump_type: 'Unspecified',
  battery_percent: 80,
  level_sensor1: true,
  level_sensor2: true,
  volume_remain: 900,
  volume_remain2: 0,
  pump_sensor_fault: false,
  pe: [],
  lv: 0,
  bt: 0,
  du: 0,
  sm: 0,
  settled: [],
  changes: [],
  s1: null,
  v1: null,
  s2: null,
  v2: null,
  bp: null,
  bv: null,
  l_exp: '2027-01-01',
  l_rec: false,
  r_exp: null,
  r_rec: null,
  steps_per_second: null,
  steps_per_ml: null,
  ml_per_shot: null,
  steps_per_second2: null,
  steps_per_ml2: null,
  ml_per_shot2: null,
  vandalism_max_shots: null,
  vandalism_interval: null,
  has_rental: false,
  start_date: null,
  end_date: null,
  start_time: null,
  end_time: null,
  pump_2_start_time: null,
  pump_2_end_time: null,
  timezone_id: 'America/Chicago',
  ...over,
});

function fakeRepo(opts: { stored?: Stored | null; registered?: string[] } = {}) {
  const finished: Record<string, unknown>[] = [];
  const inserted: NewDeviceRow[] = [];
  const hashes = new Map<string, string>([['SP240001', keyHash(KEY, 'right-secret')]]);
  const calls: CheckinCalls = {
    store: async (serial, hash) => (hashes.get(serial) === hash ? (opts.stored === undefined ? stored() : opts.stored) : null),
    finish: async (p) => void finished.push(JSON.parse(p) as Record<string, unknown>),
  };
  const repo: GatewayRepository = {
    deviceBySerial: async (serial) =>
      hashes.has(serial) ? ({ id: 4, serial, secretHash: hashes.get(serial)! } as DeviceRow) : undefined,
    setSecretHash: async (serial, hash) => (hashes.has(serial) ? (hashes.set(serial, hash), serial) : undefined),
    registeredSerials: async (serials) => serials.filter((s) => (opts.registered ?? []).includes(s)),
    insertDevices: async (rows) => void inserted.push(...rows),
    configRow: async () => undefined,
    pendingChanges: async () => [],
    checkinTransaction: (body) => body(calls),
  };
  return { repo, finished, inserted };
}
const serviceOn = (repo: GatewayRepository) => gatewayService({ repo, secretKey: KEY, now: () => NOW });
const refusal = async (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: unknown) => (e instanceof ApiError ? { status: e.status, body: e.body } : e),
  );

describe('gateway service (device check-in)', () => {
  it('answers 401 for a wrong secret, before telling a bad body apart, and stores nothing', async () => {
    const { repo, finished } = fakeRepo();
    const service = serviceOn(repo);
    expect(await refusal(service.checkin(basic('SP240001', 'wrong'), { sentAt: NOW.toISOString() }))).toMatchObject({
      status: 401,
    });
    expect(await refusal(service.checkin(basic('SP240001', 'wrong'), { sentAt: 'yesterday' }))).toMatchObject({ status: 401 });
    expect(await refusal(service.checkin(undefined, {}))).toMatchObject({ status: 401 });
    expect(await refusal(service.checkin(basic('SP240001', 'right-secret'), { sentAt: 'yesterday' }))).toMatchObject({
      status: 400,
    });
    expect(finished).toEqual([]);
  });

  it('applies the shared warning rules to the device as it will be, and answers its configuration', async () => {
    const { repo, finished } = fakeRepo({
      stored: stored({
        l_exp: '2026-11-21', // expired yesterday
        s1: false,
        v1: 100, // this upload's level reading: empty and low
        changes: [
          { id: 1, setting: 'active', desired: true, status: 'failed', superseded: false },
          { id: 2, setting: 'rental', desired: null, status: 'pending', superseded: false },
        ],
      }),
    });
    const answer = await serviceOn(repo).checkin(basic('SP240001', 'right-secret'), { sentAt: NOW.toISOString() });
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      id: 4,
      warnings: ['LEFT_SUNSCREEN_PUMP', 'LEFT_PUMP_VOLUME', 'BATCH_EXPIRED', 'FAILED_REQUEST'],
      isWarning: true,
      isBatchWarning: true,
      batteryWarning: false,
      s1: false,
      v1: 100,
      next: '2026-11-22T15:30:00.000Z',
    });
    expect(answer).toMatchObject({
      serverTime: NOW.toISOString(),
      pending: [{ id: 2, setting: 'rental', desired: null }],
      nextCheckinBy: '2026-11-22T15:30:00.000Z',
      config: {
        is_activated: true,
        poweroff_minutes: 30,
        wakeup_minutes: 5,
        time_zone: 'America/Chicago',
        pump: { steps_per_second: 300, ml_per_shot: 2.464 },
      },
    });
  });

  it('drops FAILED_REQUEST once a newer request of the setting replaced the failed one, and BATCH_EXPIRED on the expiry day', async () => {
    const { repo, finished } = fakeRepo({
      stored: stored({
        l_exp: '2026-11-22',
        changes: [{ id: 1, setting: 'active', desired: true, status: 'expired', superseded: true }],
      }),
    });
    await serviceOn(repo).checkin(basic('SP240001', 'right-secret'), { sentAt: NOW.toISOString() });
    expect(finished[0]).toMatchObject({ warnings: [], isWarning: false });
  });
});

describe('gateway service (distributor calls)', () => {
  it('rotates a secret for distributors only; the old one stops working', async () => {
    const { repo } = fakeRepo();
    const service = serviceOn(repo);
    expect(await refusal(service.rotateSecretFor({ id: 2, access: 'client' }, 'SP240001'))).toMatchObject({ status: 403 });
    expect(await refusal(service.rotateSecretFor({ id: 1, access: 'distributor' }, 'NOPE0001'))).toMatchObject({ status: 404 });
    const { secret } = await service.rotateSecretFor({ id: 1, access: 'distributor' }, 'SP240001');
    expect((await service.authenticate(basic('SP240001', secret))).serial).toBe('SP240001');
    expect(await refusal(service.authenticate(basic('SP240001', 'right-secret')))).toMatchObject({ status: 401 });
  });

  it('provisions new serials once each, and none when one is already registered', async () => {
    const { repo, inserted } = fakeRepo({ registered: ['SP240001'] });
    const service = serviceOn(repo);
    const distributor = { id: 1, access: 'distributor' } as const;
    expect(await refusal(service.provision({ id: 3, access: 'market-partner' }, { serials: ['SP250001'] }))).toMatchObject({
      status: 403,
    });
    expect(await refusal(service.provision(distributor, { serials: ['SP250001', 'SP240001'] }))).toEqual({
      status: 400,
      body: { serials: ['Already registered: SP240001'] },
    });
    expect(inserted).toEqual([]);
    expect(await service.provision(distributor, { serials: ['SP250001', 'SP250002', 'SP250001'] })).toEqual({ provisioned: 2 });
    expect(inserted.map((d) => d.serial)).toEqual(['SP250001', 'SP250002']);
  });
});
