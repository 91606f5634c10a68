import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/errors.ts';
import type { MaintenanceCandidateRow, MaintenanceRepository, SlotRow } from './maintenance.repository.ts';
import { maintenanceService } from './maintenance.service.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const DIST = { id: 1, access: 'distributor' as const, email: 'd@x.test' };
const CLIENT = { id: 2, access: 'client' as const, email: 'c@x.test' };
const CREDENTIAL = {
  id: -1,
  access: 'distributor' as const,
  email: 'service@fleet.internal',
  readOnly: true,
  username: 'maintenance',
};

const row = (id: number, over: Partial<MaintenanceCandidateRow> = {}): MaintenanceCandidateRow => ({
  id,
  serial: `SP${id}`,
  label: `Device ${id}`,
  number: id,
  brandId: null,
  siteId: 1,
  siteName: 'Beach',
  siteAddress: '1 Main St',
  timezoneId: 'America/Chicago',
  isMaintenance: false,
  isOnline: true,
  batteryPercent: 90,
  warningLists: [],
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Unspecified',
  volumeRemain: 1000,
  volumeRemain2: 0,
  batch: null,
  batch2: null,
  firstEventAt: new Date(NOW.getTime() - 60 * 86_400_000),
  lastRecord: null,
  ...over,
});

/** A flat rate of `mlPerHour` for pump 1 of a device over the 4-week window (each slot seen 4 times). */
const flat = (deviceId: number, mlPerHour: number): SlotRow[] =>
  Array.from({ length: 168 }, (_, slot) => ({ deviceId, pump: 1, slot, ml: 4 * mlPerHour }));

function setup(rows: MaintenanceCandidateRow[], slots: SlotRow[]) {
  const credentials = new Map<string, { revoked: boolean; source: string }>();
  const repo: MaintenanceRepository = {
    transaction: (fn) => fn(repo),
    async registerCredential(hash, source) {
      if (!credentials.has(hash)) credentials.set(hash, { revoked: false, source });
    },
    async credentialActive(hash) {
      return credentials.get(hash)?.revoked === false;
    },
    async revokeCredentials() {
      let n = 0;
      for (const c of credentials.values())
        if (!c.revoked) {
          c.revoked = true;
          n++;
        }
      return n;
    },
    async credentialStatus() {
      const active = [...credentials.values()].filter((c) => !c.revoked);
      return { active: active.length, lastCreatedAt: null, source: active.at(-1)?.source ?? null };
    },
    candidates: async () => rows,
    slotTotals: async () => slots,
    deviceInScope: async () => undefined,
    insertRecord: async () => ({ id: 1 }),
    updateRecord: async () => undefined,
    recordByKey: async () => undefined,
    photo: async () => undefined,
    devices: () => {
      throw new Error('not used');
    },
    records: async () => [],
  };
  const devices = { refill: async () => [] };
  return maintenanceService({
    repo,
    secretKey: 'k'.repeat(32),
    configuredToken: 'configured0123456789',
    publicUrl: 'http://portal.test',
    now: () => NOW,
    devices,
  });
}

describe('maintenance service', () => {
  it('lists only devices with a reason, soonest to run dry first, no forecast last', async () => {
    const s = setup(
      [
        row(1), // 1000 ml at 10 ml/h: ~4.2 days -> runs out soon
        row(2, { volumeRemain: 200 }), // low fluid, no history
        row(3), // 1000 ml at 1 ml/h: 41 days, nothing else -> not listed
        row(4, { batteryPercent: 20 }), // low battery, 1000 ml at 50 ml/h: 20 hours
      ],
      [...flat(1, 10), ...flat(3, 1), ...flat(4, 50)],
    );
    const list = await s.devices(DIST);
    expect(list.map((d) => [d.serial, d.reasons])).toEqual([
      ['SP4', ['low_battery', 'runs_out_soon']],
      ['SP1', ['runs_out_soon']],
      ['SP2', ['low_fluid']],
    ]);
    expect(list[1]!.pumps[0]!.forecast_text).toBe("~4 days at the last 4 weeks' rate");
    expect(list[2]!.pumps[0]!.forecast_text).toBe('not enough data');
    expect(list[2]!.runs_out_in_days).toBeNull();
  });

  it('a batch expired, recalled or almost expired is a reason; an unspecified pump is not a pump', async () => {
    const s = setup(
      [
        row(5, {
          batch: { id: 9, batchNo: 'B9', expireDate: '2026-12-01', isRecalled: false },
          rightPumpType: 'Unspecified',
          volumeRemain2: 0,
        }),
      ],
      [],
    );
    const [d] = await s.devices(DIST);
    expect(d!.reasons).toEqual(['batch']);
    expect(d!.pumps).toHaveLength(1);
    expect(d!.pumps[0]!.batch).toMatchObject({ batch_no: 'B9', status: 'ALMOST_EXPIRED' });
  });

  it('the configured credential works until rotated; the new one until revoked; only distributors manage it', async () => {
    const s = setup([], []);
    expect(await s.verifyCredential('configured0123456789')).toBe(true);
    for (const viewer of [CLIENT, CREDENTIAL]) await expect(s.rotateCredential(viewer)).rejects.toBeInstanceOf(ApiError);
    const rotated = await s.rotateCredential(DIST);
    expect(rotated).toMatchObject({ revoked: 1, link: `http://portal.test/maintenance#token=${rotated.token}` });
    expect(await s.verifyCredential('configured0123456789')).toBe(false);
    expect(await s.verifyCredential(rotated.token)).toBe(true);
    expect(await s.revokeCredential(DIST)).toEqual({ revoked: 1 });
    expect(await s.verifyCredential(rotated.token)).toBe(false);
  });

  it('clients cannot record work', async () => {
    const s = setup([], []);
    await expect(s.record(CLIENT, { serial: 'SP1', actions: ['repaired'] })).rejects.toMatchObject({ status: 403 });
  });
});
