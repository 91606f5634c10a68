import { describe, expect, it, vi } from 'vitest';
import { mlPerShotForMode, type DeviceAnswer, type DeviceFormInput, type RentalInput } from '@fleet/shared';
import type { ScopeViewer } from '../access/scope.ts';
import type {
  ChangeRequest,
  DeviceBatchRow,
  DeviceRow,
  DevicesRepository,
  PendingChangeRow,
  PumpSettingRow,
  RentalRow,
  RestorePoint,
} from './devices.repository.ts';
import { streamedText } from '../../../tests/helpers/streamed-text.ts';
import { aggregateCache } from '../lib/aggregate-cache.ts';
import { devicesService, LIST_TTL_MS } from './devices.service.ts';

const TODAY = '2026-11-22';
const NOW = new Date(`${TODAY}T12:00:00Z`);
const WAKE = new Date(`${TODAY}T18:00:00Z`);
const jsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value));

const deviceRow = (over: Partial<DeviceRow> = {}): DeviceRow => ({
  id: 1,
  serial: 'SP240001',
  label: 'Audubon Park Main Entrance',
  number: 1,
  address: '6500 Magazine St, New Orleans, LA 70118',
  lat: 29.9234,
  lng: -90.1283,
  groupId: 100,
  brandId: 10,
  locationEventType: 'SITE',
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Unspecified',
  batchId: 7,
  batch2Id: null,
  levelSensor1: false,
  levelSensor2: true,
  volumeRemain: 120,
  volumeRemain2: 0,
  reservoirMl: 1500,
  dispenseCount1: 0,
  dispenseCount2: 0,
  dispensedMl1: 0,
  dispensedMl2: 0,
  isPause: false,
  isActivated: true,
  active: null,
  isOnline: true,
  isRegistration: true,
  isMaintenance: false,
  isEnabledMaintenance: false,
  isEnabledVandalism: false,
  warningLists: [],
  isWarning: false,
  isBatchWarning: false,
  batteryWarning: false,
  batteryVolt: 4.1,
  batteryPercent: 90,
  signalQuality: 20,
  coreVer: '1.0.9',
  poweroffTime: '60',
  wakeup1Time: '30',
  nextWakeupTime: WAKE,
  lastSeenAt: new Date(`${TODAY}T11:00:00Z`),
  pumpSensorFault: false,
  reportedLat: null,
  reportedLng: null,
  reportedLocationAt: null,
  simcardPhoneNumber: null,
  imei: null,
  simSerialNumber: null,
  secretHash: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

const batchRow = (over: Partial<DeviceBatchRow> = {}): DeviceBatchRow => ({
  id: 7,
  batchNo: 'SPF-2601',
  batchType: 1,
  installDate: '2026-09-23',
  expireDate: '2027-09-18',
  volumeLitres: 10,
  remainLitres: 5,
  isRecalled: false,
  recalledAt: null,
  createdOn: new Date('2026-09-23T10:00:00Z'),
  ...over,
});

type Site = { id: number; address: string };
type State = {
  devices: DeviceRow[];
  batches: DeviceBatchRow[];
  brandIds: number[];
  sites: Site[];
  pumpSettings: PumpSettingRow[];
  rentals: RentalRow[];
  pendingChanges: PendingChangeRow[];
  exclusive: { userId: number; deviceId: number }[];
};

/**
 * An in-memory repository with the semantics the service relies on. A scope (any condition, i.e. a
 * client or market partner) sees only the serials in `inScope`; the whole fleet is `scope` undefined.
 * A transaction that throws leaves the state as it was, as the database would.
 */
function fakeRepo(seed: Partial<State> = {}, inScope: string[] = []) {
  let state: State = {
    devices: [
      deviceRow(),
      deviceRow({
        id: 2,
        serial: 'SP260002',
        groupId: null,
        label: '',
        number: null,
        address: '',
        lat: null,
        lng: null,
        brandId: null,
        batchId: null,
      }),
    ],
    batches: [
      batchRow(),
      batchRow({ id: 8, batchNo: 'SAN-2601', batchType: 2 }),
      batchRow({ id: 9, batchNo: 'SPF-OLD', expireDate: '2026-11-21' }),
      batchRow({ id: 10, batchNo: 'SPF-RECALLED', isRecalled: true, recalledAt: new Date('2026-11-01T00:00:00Z') }),
      batchRow({ id: 11, batchNo: 'SPF-LASTDAY', expireDate: TODAY }),
    ],
    brandIds: [10, 20],
    sites: [{ id: 100, address: '6500 Magazine St, New Orleans, LA 70118' }],
    pumpSettings: [],
    rentals: [],
    pendingChanges: [],
    exclusive: [{ userId: 3, deviceId: 1 }],
    ...seed,
  };
  const calls: string[] = [];
  const warned: { ids: number[]; today: string }[] = [];
  const visible = (d: DeviceRow, scope: unknown) => scope === undefined || inScope.includes(d.serial);
  const device = (id: number) => state.devices.find((d) => d.id === id)!;
  // Rows are read as snapshots, as from the database: a later write does not change what was read.
  const copy = <T>(row: T | undefined): T | undefined => (row === undefined ? undefined : structuredClone(row));
  let pieceVersion = 0;

  const repo: DevicesRepository = {
    async transaction(fn) {
      calls.push('transaction');
      const before = structuredClone(state);
      try {
        return await fn(repo);
      } catch (err) {
        state = before;
        throw err;
      }
    },
    // The paged list is SQL through and through: tests/integration/device-page.test.ts covers it.
    page: () => Promise.reject(new Error('not used')),
    pageTotal: () => Promise.reject(new Error('not used')),
    keptTotal: () => Promise.reject(new Error('not used')),
    async listJson(scope, serials) {
      return jsonBytes(
        state.devices
          .filter((d) => d.groupId != null && visible(d, scope) && serials.includes(d.serial))
          .map((d) => ({ serial: d.serial })),
      );
    },
    async *listBatches(scope, batchSize) {
      const items = state.devices
        .filter((d) => d.groupId != null && visible(d, scope))
        .map((d) => JSON.stringify({ serial: d.serial }));
      for (let i = 0; i < items.length; i += batchSize) yield items.slice(i, i + batchSize);
    },
    // Every piece is new at every read (no versions here): the kept list reads it all, as a first read does.
    async listPieceVersions(pieceSites) {
      pieceVersion++;
      return new Map(
        state.devices.filter((d) => d.groupId != null).map((d) => [Math.floor(d.groupId! / pieceSites), BigInt(pieceVersion)]),
      );
    },
    async listScopePieces(scope, pieceSites) {
      return new Set(
        state.devices.filter((d) => d.groupId != null && visible(d, scope)).map((d) => Math.floor(d.groupId! / pieceSites)),
      );
    },
    async listPieceRows(scope, from, to, pieceSites) {
      const pieces = new Map<number, string[]>();
      for (const d of state.devices) {
        const index = d.groupId == null ? -1 : Math.floor(d.groupId / pieceSites);
        if (index < from || index >= to || !visible(d, scope)) continue;
        pieces.set(index, [...(pieces.get(index) ?? []), JSON.stringify({ serial: d.serial })]);
      }
      return pieces;
    },
    async pinPieceRows(scope, from, to, pieceSites) {
      const pieces = new Map<number, string[]>();
      for (const d of state.devices) {
        const index = d.groupId == null ? -1 : Math.floor(d.groupId / pieceSites);
        if (index < from || index >= to || !visible(d, scope)) continue;
        pieces.set(index, [...(pieces.get(index) ?? []), JSON.stringify([d.serial])]);
      }
      return pieces;
    },
    async pinsJson(scope) {
      return JSON.stringify(state.devices.filter((d) => d.groupId != null && visible(d, scope)).map((d) => [d.serial]));
    },
    async statusCounts() {
      return [];
    },
    async answer(serial, scope) {
      calls.push('answer');
      const d = state.devices.find((x) => x.serial === serial && x.groupId != null && visible(x, scope));
      if (!d) return undefined;
      const pending = state.pendingChanges.filter((p) => p.deviceId === d.id && p.status === 'pending');
      return {
        serial: d.serial,
        label: d.label,
        number: d.number,
        location_group: d.groupId,
        brand: d.brandId,
        batch: d.batchId,
        batch2Id: d.batch2Id,
        is_pause: d.isPause,
        is_activated: d.isActivated,
        volume_remain: d.volumeRemain,
        pending_changes: pending.map((p) => ({ id: p.id, kind: p.kind, setting: p.setting })),
      } as unknown as DeviceAnswer;
    },
    async registered(scope) {
      calls.push('registered');
      return state.devices
        .filter((d) => d.groupId != null && visible(d, scope))
        .map((d) => ({ serial: d.serial, label: d.label, brand: d.brandId, location_id: null }));
    },
    async available() {
      calls.push('available');
      return state.devices
        .filter((d) => d.groupId == null)
        .map((d) => ({
          serial: d.serial,
          left_pump_type: d.leftPumpType,
          right_pump_type: d.rightPumpType,
          core_ver: d.coreVer,
        }));
    },
    async bySerialForUpdate(serial) {
      calls.push('bySerialForUpdate');
      return copy(state.devices.find((d) => d.serial === serial));
    },
    async placedInScope(serial, scope) {
      calls.push('placedInScope');
      return copy(state.devices.find((d) => d.serial === serial && d.groupId != null && visible(d, scope)));
    },
    async placedInScopeMany(serials, scope) {
      calls.push('placedInScopeMany');
      return structuredClone(state.devices.filter((d) => serials.includes(d.serial) && d.groupId != null && visible(d, scope)));
    },
    async brandExists(id) {
      calls.push('brandExists');
      return state.brandIds.includes(id);
    },
    async batchByRef(ref) {
      calls.push(`batchByRef ${ref}`);
      return state.batches.find((b) => (typeof ref === 'number' ? b.id === ref : b.batchNo.toLowerCase() === ref.toLowerCase()));
    },
    async resolveSite(input) {
      calls.push(`resolveSite ${input.name}`);
      const found = state.sites.find((s) => s.address.toLowerCase() === input.address.toLowerCase());
      if (found) return found.id;
      const site = { id: 100 + state.sites.length, address: input.address };
      state.sites.push(site);
      return site.id;
    },
    async serialUsingNumber(groupId, number, exceptDeviceId) {
      return state.devices.find((d) => d.groupId === groupId && d.number === number && d.id !== exceptDeviceId)?.serial;
    },
    async update(id, values) {
      calls.push('update');
      Object.assign(device(id), values);
    },
    async dropSiteIfEmpty(groupId) {
      calls.push(`dropSiteIfEmpty ${groupId}`);
      if (!state.devices.some((d) => d.groupId === groupId)) state.sites = state.sites.filter((s) => s.id !== groupId);
    },
    async removeExclusiveAssignments(deviceId) {
      state.exclusive = state.exclusive.filter((e) => e.deviceId !== deviceId);
    },
    async cancelPendingChanges(deviceId, at) {
      for (const p of state.pendingChanges)
        if (p.deviceId === deviceId && p.status === 'pending') Object.assign(p, { status: 'cancelled', resolvedAt: at });
    },
    async pumpSetting(deviceId) {
      return copy(state.pumpSettings.find((s) => s.deviceId === deviceId));
    },
    async ensurePumpSetting(initial) {
      if (!state.pumpSettings.some((s) => s.deviceId === initial.deviceId)) state.pumpSettings.push({ ...initial });
    },
    async savePumpSetting(initial, changes) {
      const current = state.pumpSettings.find((s) => s.deviceId === initial.deviceId);
      if (current) Object.assign(current, changes);
      else state.pumpSettings.push({ ...initial, ...changes });
    },
    async rental(deviceId) {
      return copy(state.rentals.find((r) => r.deviceId === deviceId));
    },
    async saveRental(deviceId, values) {
      state.rentals = state.rentals.filter((r) => r.deviceId !== deviceId);
      const row = { deviceId, ...values };
      state.rentals.push(row);
      return row;
    },
    async removeRental(deviceId) {
      state.rentals = state.rentals.filter((r) => r.deviceId !== deviceId);
    },
    async pendingChangeInScopeForUpdate(id, scope) {
      const change = state.pendingChanges.find((p) => p.id === id);
      const d = change && state.devices.find((x) => x.id === change.deviceId && x.groupId != null && visible(x, scope));
      return change && d ? { change: structuredClone(change), serial: d.serial } : undefined;
    },
    async requestChange(args: ChangeRequest) {
      calls.push(`requestChange ${args.setting}`);
      state.pendingChanges.push({
        id: state.pendingChanges.length + 1,
        deviceId: args.deviceId,
        kind: args.kind,
        setting: args.setting,
        desired: args.desired,
        previous: args.previous ?? null,
        status: 'pending',
        requestedBy: args.requestedBy,
        requestedAt: args.now,
        expectedAt: args.nextWakeup,
        expiresAt: null,
        resolvedAt: null,
      });
    },
    async cancelChange(change, at) {
      calls.push('cancelChange');
      const restore = (change.previous ?? {}) as RestorePoint;
      if (restore.devices) Object.assign(device(change.deviceId), restore.devices);
      Object.assign(
        state.pendingChanges.find((p) => p.id === change.id)!,
        { status: 'cancelled', resolvedAt: at },
      );
    },
    async recomputeWarnings(ids, today) {
      warned.push({ ids, today });
    },
  };
  return { repo, calls, warned, state: () => state };
}

const distributor: ScopeViewer = { id: 1, access: 'distributor' };
const client: ScopeViewer = { id: 2, access: 'client' };
const partner: ScopeViewer = { id: 3, access: 'market-partner' };
const service = (repo: DevicesRepository) => devicesService({ repo, now: () => NOW });

/** The status and body an ApiError carries, for one-line assertions. */
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    const e = err as { status?: number; body?: unknown };
    return { status: e.status, body: e.body };
  }
  return 'no error';
};

const form = (over: Partial<DeviceFormInput> = {}): DeviceFormInput => ({
  serialNumber: 'SP260002',
  deviceName: 'Kenner Pool',
  brandId: 10,
  deviceNumber: 2,
  batchNumber: 'spf-2601',
  batch2Number: '',
  address: '1800 Williams Blvd, Kenner, LA 70062',
  location: { lat: 29.99412345678, lng: -90.2417 },
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Unspecified',
  locationEventType: 'SITE',
  ...over,
});
const rentalInput = (over: Partial<RentalInput> = {}): RentalInput => ({
  serials: ['SP240001'],
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  startTime: '08:00',
  endTime: '18:00',
  ...over,
});

describe('who may do what', () => {
  it.each([client, partner])(
    '$access may not add, edit, delete or list unplaced serials: 403 before the repository is asked',
    async (viewer) => {
      const { repo, calls } = fakeRepo({}, ['SP240001']);
      const s = service(repo);
      for (const p of [
        s.add(viewer, form()),
        s.edit(viewer, 'SP240001', form({ serialNumber: 'SP240001' })),
        s.remove(viewer, 'SP240001'),
        s.available(viewer),
      ]) {
        expect(await refusal(p)).toEqual({ status: 403, body: { detail: 'You do not have permission to perform this action.' } });
      }
      expect(calls).toEqual([]);
    },
  );

  it('the client role gets 403 on every device control, even on a device it may see', async () => {
    const { repo, calls, state } = fakeRepo({}, ['SP240001']);
    const s = service(repo);
    const body = { detail: 'The client role cannot change device settings.' };
    for (const p of [
      s.setConfig(client, 'SP240001', { active: false }),
      s.setPause(client, 'SP240001', true),
      s.editPumpSetting(client, 'SP240001', { pump_mode: 3 }),
      s.registrationSetup(client, 'SP240001', { powerOffTime: 10, wakeUpTime: 10 }),
      s.resetMl(client, 'SP240001', 1),
      s.cancelPending(client, 1),
      s.setRental(client, rentalInput()),
    ]) {
      expect(await refusal(p)).toEqual({ status: 403, body });
    }
    expect(calls).toEqual([]);
    expect(state().pendingChanges).toEqual([]);
  });

  it('a market partner controls its own devices', async () => {
    const { repo, state } = fakeRepo({}, ['SP240001']);
    const answer = await service(repo).setPause(partner, 'SP240001', true);
    expect(answer).toMatchObject({ serial: 'SP240001', is_pause: true });
    expect(state().pendingChanges.map((p) => [p.setting, p.requestedBy])).toEqual([['pause', 3]]);
  });

  it('a serial outside the scope answers 404 the same as one that does not exist', async () => {
    const { repo } = fakeRepo({}, []);
    const s = service(repo);
    const notFound = { status: 404, body: { detail: 'No device with this serial.' } };
    for (const p of [
      s.get(partner, 'SP240001'),
      s.get(client, 'SP240001'),
      s.setPause(partner, 'SP240001', true),
      s.setConfig(partner, 'SP240001', { is_enabled_vandalism: true }),
      s.pumpSetting(client, 'SP240001'),
      s.rental(client, 'SP240001'),
      s.resetMl(partner, 'SP240001', 1),
      s.get(distributor, 'NOPE0001'),
      // Unplaced: only in the available list.
      s.remove(distributor, 'SP260002'),
    ]) {
      expect(await refusal(p)).toEqual(notFound);
    }
  });

  it('keeps the whole list per scope and encoding for 2 s, then gives it whole while the next is read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { repo } = fakeRepo({ devices: [deviceRow(), deviceRow({ id: 3, serial: 'SP240003', number: 2 })] }, ['SP240003']);
      let reads = 0;
      const counting: DevicesRepository = {
        ...repo,
        listBatches(scope, size) {
          reads++;
          return repo.listBatches(scope, size);
        },
      };
      const cache = aggregateCache();
      const s = devicesService({ repo: counting, now: () => NOW, cache });
      const first = await s.listStream(distributor, 'br');
      expect(await s.listStream(distributor, 'br')).toBe(first);
      expect(await s.listStream(partner, 'br')).not.toBe(first);
      expect(await s.listStream(distributor, 'gzip')).not.toBe(first);
      expect(reads).toBe(2);
      await first.done;
      vi.advanceTimersByTime(LIST_TTL_MS - 1);
      expect(await s.listStream(distributor, 'br')).toBe(first);
      vi.advanceTimersByTime(1);
      // Expired: the whole answer still, while one read runs behind; the new answer once it is whole.
      expect(await s.listStream(distributor, 'br')).toBe(first);
      expect(await s.listStream(distributor, 'br')).toBe(first);
      expect(reads).toBe(3);
      // Once the read behind is whole (however long compressing takes on a loaded host), its answer is given.
      let second = first;
      await vi.waitFor(
        async () => {
          second = await s.listStream(distributor, 'br');
          expect(second).not.toBe(first);
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(second.plainBytes()).toBe(first.plainBytes());
      expect(reads).toBe(3);
      // Past twice the expiry nothing old is given: a new read, streamed to the caller as it is made.
      vi.advanceTimersByTime(2 * LIST_TTL_MS);
      const third = await s.listStream(distributor, 'br');
      expect(third).not.toBe(second);
      expect(reads).toBe(4);
      expect(LIST_TTL_MS).toBeLessThanOrEqual(2000);
      await cache.close();
    } finally {
      vi.useRealTimers();
    }
  });

  // Brotli streams from the batches (listBatches), gzip joins kept pieces (listPieceRows): either read failing once.
  it.each([
    [
      'br',
      (repo: DevicesRepository, fail: () => void): Partial<DevicesRepository> => ({
        async *listBatches(scope, size) {
          fail();
          yield* repo.listBatches(scope, size);
        },
      }),
    ],
    [
      'gzip',
      (repo: DevicesRepository, fail: () => void): Partial<DevicesRepository> => ({
        async listPieceRows(scope, from, to, pieceSites) {
          fail();
          return repo.listPieceRows(scope, from, to, pieceSites);
        },
      }),
    ],
  ] as const)('a list read (%s) that fails is not kept: the next caller reads again', async (encoding, failing) => {
    const { repo } = fakeRepo({ devices: [deviceRow()] });
    let reads = 0;
    const failingOnce: DevicesRepository = {
      ...repo,
      ...failing(repo, () => {
        if (reads++ === 0) throw new Error('connection lost');
      }),
    };
    const cache = aggregateCache();
    const s = devicesService({ repo: failingOnce, now: () => NOW, cache });
    await expect((await s.listStream(distributor, encoding)).done).rejects.toThrow('connection lost');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.parse(await streamedText(await s.listStream(distributor, encoding)))).toEqual([{ serial: 'SP240001' }]);
    expect(reads).toBe(2);
    await cache.close();
  });

  it('reads are filtered by scope for every role', async () => {
    const { repo } = fakeRepo({ devices: [deviceRow(), deviceRow({ id: 3, serial: 'SP240003', number: 2 })] }, ['SP240003']);
    const s = service(repo);
    expect((await s.registered(client)).map((d) => d.serial)).toEqual(['SP240003']);
    expect((await s.registered(distributor)).map((d) => d.serial)).toEqual(['SP240001', 'SP240003']);
    expect(JSON.parse(await streamedText(await s.listStream(partner, 'gzip')))).toEqual([{ serial: 'SP240003' }]);
    expect(JSON.parse(await streamedText(await s.listStream(distributor, 'br')))).toEqual([
      { serial: 'SP240001' },
      { serial: 'SP240003' },
    ]);
    expect(JSON.parse(await streamedText(await s.pinsStream(partner, 'gzip')))).toEqual([['SP240003']]);
    expect(JSON.parse(await streamedText(await s.pinsStream(distributor, 'br')))).toEqual([['SP240001'], ['SP240003']]);
    // The kept feed is one tuple a line, as the map reads it.
    expect(await streamedText(await s.pinsStream(distributor, 'gzip'))).toBe('[["SP240001"],\n["SP240003"]]');
    // The cards poll's filtered list: only the serials named, and still only those in scope.
    expect(JSON.parse((await s.listOf(distributor, ['SP240003'])).toString())).toEqual([{ serial: 'SP240003' }]);
    expect(JSON.parse((await s.listOf(partner, ['SP240001', 'SP240003'])).toString())).toEqual([{ serial: 'SP240003' }]);
  });
});

describe('add device', () => {
  it('places an available serial: site, rounded position, batch by number, default pump settings, warnings of today', async () => {
    const { repo, state, warned, calls } = fakeRepo();
    const answer = await service(repo).add(distributor, form());
    const placed = state().devices.find((d) => d.serial === 'SP260002')!;
    expect(placed).toMatchObject({
      label: 'Kenner Pool',
      number: 2,
      groupId: 101,
      brandId: 10,
      batchId: 7,
      batch2Id: null,
      lat: 29.994123,
      lng: -90.2417,
      address: '1800 Williams Blvd, Kenner, LA 70062',
    });
    expect(calls).toContain('resolveSite 1800 Williams Blvd');
    expect(state().pumpSettings).toEqual([
      {
        deviceId: 2,
        stepsPerSecond: 300,
        stepsPerMl: 30,
        stepsPerSecond2: 300,
        stepsPerMl2: 30,
        mlPerShot: mlPerShotForMode(2),
        mlPerShot2: mlPerShotForMode(2),
        vandalismMaxShots: 10,
        vandalismInterval: 60,
      },
    ]);
    expect(warned).toEqual([{ ids: [2], today: TODAY }]);
    expect(answer).toMatchObject({ serial: 'SP260002', label: 'Kenner Pool', batch: 7 });
  });

  it('refuses a serial that is unknown or already placed', async () => {
    const { repo } = fakeRepo();
    const body = { serialNumber: ['Please select the serial number in the list above'] };
    expect(await refusal(service(repo).add(distributor, form({ serialNumber: 'NOPE0001' })))).toEqual({ status: 400, body });
    expect(await refusal(service(repo).add(distributor, form({ serialNumber: 'SP240001' })))).toEqual({ status: 400, body });
  });

  it.each([
    ['an unknown brand', { brandId: 99 }, { brandId: ['Unknown brand.'] }],
    ['an unknown batch', { batchNumber: 'SPF-9999' }, { batchNumber: ['Unknown batch.'] }],
    [
      'a sanitizer batch in a sunscreen pump',
      { batchNumber: 'SAN-2601' },
      { batchNumber: ['This batch does not hold sunscreen.'] },
    ],
    ['an expired batch', { batchNumber: 'SPF-OLD' }, { batchNumber: ['This batch is expired or recalled.'] }],
    ['a recalled batch', { batchNumber: 10 }, { batchNumber: ['This batch is expired or recalled.'] }],
    [
      'a sunscreen batch in a sanitizer right pump',
      { rightPumpType: 'Sanitizer' as const, batch2Number: 'SPF-2601' },
      { batch2Number: ['This batch does not hold sanitizer.'] },
    ],
    [
      'an expired right batch',
      { rightPumpType: 'Sunscreen' as const, batch2Number: 'SPF-OLD' },
      { batch2Number: ['This batch is expired or recalled.'] },
    ],
  ])('refuses %s as a field error and stores nothing', async (_name, over, body) => {
    const { repo, state } = fakeRepo();
    const before = structuredClone(state());
    expect(await refusal(service(repo).add(distributor, form(over)))).toEqual({ status: 400, body });
    expect(state()).toEqual(before);
  });

  it('accepts a batch on its last day', async () => {
    const { repo, state } = fakeRepo();
    await service(repo).add(distributor, form({ batchNumber: 'SPF-LASTDAY' }));
    expect(state().devices.find((d) => d.serial === 'SP260002')!.batchId).toBe(11);
  });

  it('refuses a number another device already has at the site, naming it', async () => {
    const { repo, state } = fakeRepo();
    const same = form({ address: '6500 Magazine St, New Orleans, LA 70118', deviceNumber: 1 });
    expect(await refusal(service(repo).add(distributor, same))).toEqual({
      status: 400,
      body: { deviceNumber: ['Number 1 is already used at this site (S/N SP240001).'] },
    });
    expect(state().devices.find((d) => d.serial === 'SP260002')!.groupId).toBeNull();
    await service(repo).add(distributor, { ...same, deviceNumber: 2 });
    expect(state().devices.find((d) => d.serial === 'SP260002')!.groupId).toBe(100);
  });

  it('ignores batch2 when the right pump is Unspecified, even an unusable one', async () => {
    const { repo, state, calls } = fakeRepo();
    await service(repo).add(distributor, form({ batch2Number: 'SPF-RECALLED' }));
    expect(state().devices.find((d) => d.serial === 'SP260002')!.batch2Id).toBeNull();
    expect(calls.filter((c) => c.startsWith('batchByRef'))).toEqual(['batchByRef spf-2601']);
  });

  it('stores the right batch when the right pump holds a fluid', async () => {
    const { repo, state } = fakeRepo();
    await service(repo).add(distributor, form({ rightPumpType: 'Sanitizer', batch2Number: 8 }));
    expect(state().devices.find((d) => d.serial === 'SP260002')!).toMatchObject({ rightPumpType: 'Sanitizer', batch2Id: 8 });
  });
});

describe('edit device', () => {
  const edit = (over: Partial<DeviceFormInput> = {}) =>
    form({ serialNumber: 'SP240001', deviceNumber: 1, address: '6500 Magazine St, New Orleans, LA 70118', ...over });

  it('keeps the serial and the pump types', async () => {
    const { repo, state } = fakeRepo();
    const s = service(repo);
    expect(await refusal(s.edit(distributor, 'SP240001', edit({ serialNumber: 'SP260002' })))).toEqual({
      status: 400,
      body: { serialNumber: ['The serial number of a device cannot be changed.'] },
    });
    expect(await refusal(s.edit(distributor, 'SP240001', edit({ leftPumpType: 'Sanitizer', batchNumber: 'SAN-2601' })))).toEqual({
      status: 400,
      body: { leftPumpType: ['Pump types cannot be changed.'] },
    });
    expect(
      await refusal(s.edit(distributor, 'SP240001', edit({ rightPumpType: 'Sanitizer', batch2Number: 'SAN-2601' }))),
    ).toEqual({ status: 400, body: { rightPumpType: ['Pump types cannot be changed.'] } });
    expect(state().devices[0]!.label).toBe('Audubon Park Main Entrance');
  });

  it('keeps its own number at its own site, and a move drops the site it left when empty', async () => {
    const { repo, state, calls } = fakeRepo();
    const s = service(repo);
    await s.edit(distributor, 'SP240001', edit({ deviceName: 'Renamed' }));
    expect(state().devices[0]).toMatchObject({ label: 'Renamed', groupId: 100 });
    expect(calls.filter((c) => c.startsWith('dropSiteIfEmpty'))).toEqual([]);

    await s.edit(distributor, 'SP240001', edit({ address: '1 Elsewhere Rd, Metairie, LA 70001' }));
    expect(state().devices[0]!.groupId).toBe(101);
    expect(calls).toContain('dropSiteIfEmpty 100');
    expect(state().sites.map((x) => x.id)).toEqual([101]);
  });
});

describe('delete device', () => {
  it("answers {detail: 'Device has been deleted'} and gives the serial back to the available list", async () => {
    const { repo, state, warned } = fakeRepo({
      rentals: [
        {
          deviceId: 1,
          startDate: '2026-11-01',
          endDate: '2026-11-30',
          startTime: null,
          endTime: null,
          pump2StartTime: null,
          pump2EndTime: null,
          updatedAt: NOW,
        },
      ],
    });
    const s = service(repo);
    await s.setPause(distributor, 'SP240001', true);
    expect(await s.remove(distributor, 'SP240001')).toEqual({ detail: 'Device has been deleted' });
    expect(state().devices[0]).toMatchObject({
      groupId: null,
      brandId: null,
      label: '',
      number: null,
      address: '',
      lat: null,
      lng: null,
      batchId: null,
      batch2Id: null,
      isPause: false,
    });
    expect(state().rentals).toEqual([]);
    expect(state().exclusive).toEqual([]);
    expect(state().pendingChanges.map((p) => [p.status, p.resolvedAt])).toEqual([['cancelled', NOW]]);
    expect(state().sites).toEqual([]);
    expect(warned.at(-1)).toEqual({ ids: [1], today: TODAY });
    expect((await s.available(distributor)).map((d) => d.serial)).toEqual(['SP240001', 'SP260002']);
  });
});

describe('device controls record pending changes', () => {
  it('pause: stores the flag and what the device picks up at its next wake-up', async () => {
    const { repo, state } = fakeRepo();
    const answer = await service(repo).setPause(distributor, 'SP240001', true);
    expect(state().devices[0]!.isPause).toBe(true);
    expect(state().pendingChanges).toMatchObject([
      {
        deviceId: 1,
        kind: 'other',
        setting: 'pause',
        desired: { is_pause: true },
        previous: { devices: { isPause: false } },
        requestedBy: 1,
        requestedAt: NOW,
        expectedAt: WAKE,
        status: 'pending',
      },
    ]);
    expect(answer).toMatchObject({ is_pause: true, pending_changes: [{ setting: 'pause', kind: 'other' }] });
  });

  it('config: activation is its own kind; maintenance and vandalism are others', async () => {
    const { repo, state } = fakeRepo();
    const s = service(repo);
    const answer = await s.setConfig(distributor, 'SP240001', { active: false });
    expect(answer).toMatchObject({ detail: 'Your config setup has been successfully saved.', device: { is_activated: false } });
    await s.setConfig(distributor, 'SP240001', { is_enabled_maintenance: true });
    await s.setConfig(distributor, 'SP240001', { is_enabled_vandalism: true });
    expect(state().devices[0]).toMatchObject({ isActivated: false, isEnabledMaintenance: true, isEnabledVandalism: true });
    expect(state().pendingChanges.map(({ kind, setting, desired, previous }) => ({ kind, setting, desired, previous }))).toEqual([
      { kind: 'activation', setting: 'active', desired: { is_activated: false }, previous: { devices: { isActivated: true } } },
      {
        kind: 'other',
        setting: 'is_enabled_maintenance',
        desired: { is_enabled_maintenance: true },
        previous: { devices: { isEnabledMaintenance: false } },
      },
      {
        kind: 'other',
        setting: 'is_enabled_vandalism',
        desired: { is_enabled_vandalism: true },
        previous: { devices: { isEnabledVandalism: false } },
      },
    ]);
  });

  it('activation cannot change while a rental plan is on today, and can before it starts or once it ended', async () => {
    const plan = (endDate: string, startDate = '2026-11-01'): RentalRow => ({
      deviceId: 1,
      startDate,
      endDate,
      startTime: null,
      endTime: null,
      pump2StartTime: null,
      pump2EndTime: null,
      updatedAt: NOW,
    });
    const on = fakeRepo({ rentals: [plan(TODAY)] });
    expect(await refusal(service(on.repo).setConfig(distributor, 'SP240001', { active: false }))).toEqual({
      status: 400,
      body: { active: ['Activation cannot change while a rental plan is on.'] },
    });
    expect(on.state().pendingChanges).toEqual([]);
    expect(on.state().devices[0]!.isActivated).toBe(true);

    const ended = fakeRepo({ rentals: [plan('2026-11-21')] });
    await service(ended.repo).setConfig(distributor, 'SP240001', { active: false });
    expect(ended.state().devices[0]!.isActivated).toBe(false);

    const later = fakeRepo({ rentals: [plan('2026-12-31', '2026-11-23')] });
    await service(later.repo).setConfig(distributor, 'SP240001', { active: false });
    expect(later.state().devices[0]!.isActivated).toBe(false);
  });

  it('registration timers are clamped to 1..600 minutes and keep what they replace', async () => {
    const { repo, state } = fakeRepo();
    const answer = await service(repo).registrationSetup(distributor, 'SP240001', { powerOffTime: 900, wakeUpTime: 0 });
    expect(answer).toMatchObject({ detail: 'Your time setup has been successfully saved.', poweroff_time: 600, wakeup1_time: 1 });
    expect(state().devices[0]).toMatchObject({ poweroffTime: '600', wakeup1Time: '1' });
    expect(state().pendingChanges[0]).toMatchObject({
      setting: 'registration_timer',
      desired: { poweroff_time: 600, wakeup1_time: 1 },
      previous: { devices: { poweroffTime: '60', wakeup1Time: '30' } },
    });
  });

  it('reset ml refills one pump to its reservoir; a device without a right pump refuses pump 2', async () => {
    const { repo, state, warned } = fakeRepo();
    const s = service(repo);
    expect(await refusal(s.resetMl(distributor, 'SP240001', 2))).toEqual({
      status: 400,
      body: { pumpNumber: ['This device has no right pump.'] },
    });
    await s.resetMl(distributor, 'SP240001', 1);
    expect(state().devices[0]).toMatchObject({ volumeRemain: 1500, levelSensor1: true });
    expect(state().pendingChanges).toMatchObject([
      {
        setting: 'reset_ml_1',
        desired: { pump_number: 1, volume_remain: 1500 },
        previous: { devices: { volumeRemain: 120, levelSensor1: false } },
      },
    ]);
    expect(warned).toEqual([{ ids: [1], today: TODAY }]);
  });
});

describe('pump setting', () => {
  it('answers the defaults for a device that has none stored', async () => {
    const { repo } = fakeRepo();
    expect(await service(repo).pumpSetting(distributor, 'SP240001')).toEqual({
      steps_per_second: 300,
      steps_per_ml: 30,
      ml_per_shot: mlPerShotForMode(2),
      pump_mode: 2,
      steps_per_second2: 300,
      steps_per_ml2: 30,
      ml_per_shot2: mlPerShotForMode(2),
      pump_mode2: 2,
      vandalism_max_shots: 10,
      vandalism_interval: 60,
    });
  });

  it('refuses nothing to change, a shot that is no pump mode, and a right pump the device lacks', async () => {
    const { repo, state } = fakeRepo();
    const s = service(repo);
    expect(await refusal(s.editPumpSetting(distributor, 'SP240001', {}))).toEqual({
      status: 400,
      body: { detail: 'Nothing to change.' },
    });
    expect(await refusal(s.editPumpSetting(distributor, 'SP240001', { ml_per_shot: 3 }))).toEqual({
      status: 400,
      body: { ml_per_shot: ['ml_per_shot must be one of the pump modes 1 to 8 (1/4 to 2 tsp).'] },
    });
    expect(await refusal(s.editPumpSetting(distributor, 'SP240001', { pump_mode2: 4 }))).toEqual({
      status: 400,
      body: { ml_per_shot2: ['This device has no right pump.'] },
    });
    expect(state().pumpSettings).toEqual([]);
  });

  it('stores the new mode with the fixed steps and records the previous values', async () => {
    const old: PumpSettingRow = {
      deviceId: 1,
      stepsPerSecond: 250,
      stepsPerMl: 25,
      stepsPerSecond2: 300,
      stepsPerMl2: 30,
      mlPerShot: mlPerShotForMode(1),
      mlPerShot2: mlPerShotForMode(2),
      vandalismMaxShots: 5,
      vandalismInterval: 30,
    };
    const { repo, state } = fakeRepo({ pumpSettings: [old] });
    const answer = await service(repo).editPumpSetting(distributor, 'SP240001', { pump_mode: 4, vandalism_max_shots: 12 });
    expect(answer).toMatchObject({
      detail: 'Your pump settings have been successfully updated.',
      pump_mode: 4,
      steps_per_second: 300,
      steps_per_ml: 30,
      vandalism_max_shots: 12,
      vandalism_interval: 30,
    });
    expect(state().pendingChanges[0]).toMatchObject({
      setting: 'pump_setting',
      desired: { mlPerShot: mlPerShotForMode(4), vandalismMaxShots: 12 },
      previous: {
        pumpSettings: {
          mlPerShot: mlPerShotForMode(1),
          mlPerShot2: mlPerShotForMode(2),
          vandalismMaxShots: 5,
          vandalismInterval: 30,
        },
      },
    });
  });
});

describe('pending change cancel', () => {
  it('404 for an unknown change, 400 once it is no longer pending, else restores and answers the device', async () => {
    const { repo, warned } = fakeRepo();
    const s = service(repo);
    expect(await refusal(s.cancelPending(distributor, 1))).toEqual({
      status: 404,
      body: { detail: 'No pending change with this id.' },
    });
    await s.setPause(distributor, 'SP240001', true);
    const answer = await s.cancelPending(distributor, 1);
    expect(answer).toMatchObject({ detail: 'The change was cancelled.', device: { is_pause: false, pending_changes: [] } });
    expect(warned).toEqual([{ ids: [1], today: TODAY }]);
    expect(await refusal(s.cancelPending(distributor, 1))).toEqual({
      status: 400,
      body: { detail: 'This change is no longer pending (cancelled).' },
    });
  });

  it('a change on a device outside the scope is unknown', async () => {
    const { repo } = fakeRepo();
    await service(repo).setPause(distributor, 'SP240001', true);
    expect(await refusal(service(repo).cancelPending(partner, 1))).toEqual({
      status: 404,
      body: { detail: 'No pending change with this id.' },
    });
  });
});

describe('rental plans', () => {
  it('answers nulls and 0 days without a plan', async () => {
    const { repo } = fakeRepo();
    expect(await service(repo).rental(distributor, 'SP240001')).toEqual({
      start_date: null,
      end_date: null,
      start_time: null,
      end_time: null,
      pump_2_start_time: null,
      pump_2_end_time: null,
      day_count: 0,
    });
  });

  it('counts both the first and the last day, and shows times as HH:mm', async () => {
    const { repo } = fakeRepo({
      rentals: [
        {
          deviceId: 1,
          startDate: '2026-11-01',
          endDate: '2026-11-30',
          startTime: '08:00:00',
          endTime: '18:15:00',
          pump2StartTime: null,
          pump2EndTime: null,
          updatedAt: NOW,
        },
      ],
    });
    expect(await service(repo).rental(distributor, 'SP240001')).toEqual({
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      start_time: '08:00',
      end_time: '18:15',
      pump_2_start_time: null,
      pump_2_end_time: null,
      day_count: 30,
    });
  });

  it('sets one plan on every selected device, marks it active and records the plan it replaces', async () => {
    const { repo, state } = fakeRepo({
      devices: [deviceRow(), deviceRow({ id: 3, serial: 'SP240003', number: 2, active: null })],
    });
    const answer = await service(repo).setRental(
      distributor,
      rentalInput({ serials: ['SP240001', 'SP240003', 'SP240001'], endDate: '2026-11-01' }),
    );
    expect(answer).toEqual({
      detail: 'New plan has been successfully set',
      rentals: ['SP240001', 'SP240003'].map((serial) => ({
        serial,
        start_date: '2026-11-01',
        end_date: '2026-11-01',
        start_time: '08:00',
        end_time: '18:00',
        pump_2_start_time: null,
        pump_2_end_time: null,
        day_count: 1,
      })),
    });
    expect(state().devices.map((d) => d.active)).toEqual(['1', '1']);
    expect(state().pendingChanges.map((p) => [p.deviceId, p.kind, p.setting, p.previous])).toEqual([
      [1, 'rental', 'rental', { devices: { active: null }, rental: null }],
      [3, 'rental', 'rental', { devices: { active: null }, rental: null }],
    ]);
  });

  it('is all or nothing: an unknown serial or a right pump that cannot be scheduled stores no plan', async () => {
    const { repo, state } = fakeRepo({
      devices: [deviceRow(), deviceRow({ id: 3, serial: 'SP240003', number: 2, rightPumpType: 'Sanitizer', coreVer: '1.0.8' })],
    });
    const s = service(repo);
    expect(
      await refusal(s.setRental(distributor, rentalInput({ serials: ['SP240001', 'NOPE0001', 'NOPE0002', 'NOPE0001'] }))),
    ).toEqual({ status: 404, body: { detail: 'No device with serial NOPE0001, NOPE0002.' } });
    expect(
      await refusal(s.setRental(distributor, rentalInput({ serials: ['SP240001', 'SP240003'], pump2StartTime: '09:00' }))),
    ).toEqual({
      status: 400,
      body: { pump2StartTime: ['Device SP240001 has no right pump that can be scheduled.'] },
    });
    expect(state().rentals).toEqual([]);
    expect(state().pendingChanges).toEqual([]);
  });
});
