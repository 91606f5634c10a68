import { describe, expect, it, vi } from 'vitest';
import { batchRecallNoticeSchema } from '@fleet/workers';
import { ApiError } from '../lib/errors.ts';
import type { BatchesRepository, BatchRow, BatchUsageRow, FedDeviceRow } from './batches.repository.ts';
import {
  batchesService,
  editedVolume,
  inUseMessage,
  parseBatchId,
  recallNotices,
  sortForBatchList,
  toBatchAnswer,
  toBatchDevice,
} from './batches.service.ts';

const TODAY = '2026-11-22';
const FL_OZ = 0.0295735;

const batch = (over: Partial<BatchRow> = {}): BatchRow => ({
  id: 7,
  batchNo: 'SPF-2601',
  batchType: 1,
  installDate: '2026-09-23',
  expireDate: '2027-09-18',
  volumeLitres: 338 * FL_OZ,
  remainLitres: 338 * FL_OZ * 0.5,
  isRecalled: false,
  recalledAt: null,
  createdOn: new Date('2026-09-23T10:00:00Z'),
  ...over,
});
const usage = (b: Partial<BatchRow> = {}, deviceCount = 0, brands: BatchUsageRow['brands'] = []): BatchUsageRow => ({
  batch: batch(b),
  deviceCount,
  brands,
});
const device = (over: Partial<FedDeviceRow> = {}): FedDeviceRow => ({
  id: 1,
  serial: 'SP240001',
  label: 'Audubon Park Main Entrance',
  address: '6500 Magazine St',
  brandId: 10,
  brandName: 'SunStop',
  batchId: 7,
  batch2Id: null,
  isPause: false,
  nextWakeupTime: null,
  ...over,
});

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? { status: err.status, body: err.body } : err;
  }
  return 'no error';
};

describe('batch answer (spec section 3 shape)', () => {
  it('shows fl.oz. as entered and litres as stored, both spellings of each field', () => {
    const a = toBatchAnswer(
      usage({}, 3, [
        { id: 2, name: 'Gulf Shield SPF' },
        { id: 1, name: 'Bayou Clean' },
      ]),
      TODAY,
    );
    expect(a).toMatchObject({
      id: 7,
      batchType: 1,
      batch_type: 1,
      batch_type_name: 'Sunscreen',
      batchNumber: 'SPF-2601',
      batch_no: 'SPF-2601',
      installDate: '2026-09-23',
      install_date: '2026-09-23',
      expiryDate: '2027-09-18',
      expire_date: '2027-09-18',
      batchVolume: 338,
      volume: 9.995843,
      remain_fl_oz: 169,
      created_on: '2026-09-23T10:00:00.000Z',
      in_use: true,
      is_using: true,
      device_count: 3,
      status: 'IN_USE',
      status_label: 'In Use',
      is_recalled: false,
      recalled_at: null,
    });
    expect(a.remain).toBeCloseTo(4.99792, 5);
    expect(a.brand_lists.map((b) => b.name)).toEqual(['Bayou Clean', 'Gulf Shield SPF']);
  });

  it('takes its status from the shared rule, with the viewer-independent day', () => {
    expect(toBatchAnswer(usage({}, 0), TODAY)).toMatchObject({ status: 'NOT_IN_USE', status_label: 'Not In Use', in_use: false });
    expect(toBatchAnswer(usage({ expireDate: '2026-12-01' }, 2), TODAY)).toMatchObject({
      status: 'ALMOST_EXPIRED',
      status_label: 'Almost Expire',
    });
    expect(toBatchAnswer(usage({ expireDate: '2026-11-21' }, 2), TODAY)).toMatchObject({
      status: 'EXPIRED',
      status_label: 'Expired / Recalled',
    });
    expect(toBatchAnswer(usage({ batchType: 2 }), TODAY).batch_type_name).toBe('Sanitizer');
    expect(toBatchAnswer(usage({ batchType: 0 }), TODAY).batch_type_name).toBe('None');
  });

  it('a recalled batch carries the flag and the instant', () => {
    const a = toBatchAnswer(usage({ isRecalled: true, recalledAt: new Date('2026-11-20T08:30:00Z') }, 1), TODAY);
    expect(a).toMatchObject({ is_recalled: true, recalled_at: '2026-11-20T08:30:00.000Z', status: 'IN_USE' });
  });
});

describe('Batch List order', () => {
  it('puts expired batches last, then orders by batch number as people read it', () => {
    const list = [
      usage({ id: 1, batchNo: 'SPF-10' }),
      usage({ id: 2, batchNo: 'SPF-2504', expireDate: '2026-01-01' }),
      usage({ id: 3, batchNo: 'san-2601' }),
      usage({ id: 4, batchNo: 'SPF-2' }),
      usage({ id: 5, batchNo: 'SAN-2501', expireDate: '2025-01-01' }),
    ].map((r) => toBatchAnswer(r, TODAY));
    expect(sortForBatchList(list).map((b) => b.batch_no)).toEqual(['san-2601', 'SPF-2', 'SPF-10', 'SAN-2501', 'SPF-2504']);
  });
});

describe('edited volume', () => {
  const current = { volumeLitres: 10, remainLitres: 4 };

  it('moves remain by the same amount as the volume: what was dispensed stays dispensed', () => {
    const grown = editedVolume(current, 12 / FL_OZ);
    expect(grown.volumeLitres).toBeCloseTo(12, 9);
    expect(grown.remainLitres).toBeCloseTo(6, 9);
  });

  it('never goes below 0 nor above the new volume', () => {
    expect(editedVolume(current, 5 / FL_OZ).remainLitres).toBe(0);
    const full = editedVolume({ volumeLitres: 10, remainLitres: 10 }, 8 / FL_OZ);
    expect(full.remainLitres).toBeCloseTo(8, 9);
    expect(full.remainLitres).toBeLessThanOrEqual(full.volumeLitres);
  });

  it('keeps stored values when the card value is sent back unchanged', () => {
    const stored = { volumeLitres: 338 * FL_OZ + 1e-9, remainLitres: 1.2345678 };
    expect(editedVolume(stored, 338)).toEqual(stored);
    expect(editedVolume(stored, 338.001)).toEqual(stored);
  });
});

describe('path ids and messages', () => {
  it('answers 400 for a malformed id and 404 for one that cannot exist', () => {
    expect(parseBatchId('42')).toBe(42);
    expect(status(() => parseBatchId('abc'))).toEqual({
      status: 400,
      body: { detail: 'Batch id must be a positive whole number.' },
    });
    expect(status(() => parseBatchId('-1'))).toMatchObject({ status: 400 });
    expect(status(() => parseBatchId('1'.repeat(10_240)))).toMatchObject({ status: 400 });
    expect(status(() => parseBatchId('0'))).toMatchObject({ status: 404 });
    expect(status(() => parseBatchId('2147483648'))).toMatchObject({ status: 404 });
  });

  it('names how many devices keep a batch from being deleted', () => {
    expect(inUseMessage(3)).toBe('Batch is in use by 3 devices.');
    expect(inUseMessage(1)).toBe('Batch is in use by 1 device.');
  });
});

describe('recall notices', () => {
  const recalled = batch({ isRecalled: true, recalledAt: new Date('2026-11-22T14:05:09.123Z') });
  const devices = [
    device({ id: 1, serial: 'SP240001', brandId: 10, batchId: 7 }),
    device({ id: 2, serial: 'SP240002', brandId: 20, brandName: 'Gulf Shield SPF', batchId: 3, batch2Id: 7, isPause: true }),
    device({ id: 3, serial: 'SP240003', brandId: 30, brandName: 'Bayou Clean', batchId: 7, batch2Id: 7 }),
    device({ id: 4, serial: 'SP240004', brandId: null, brandName: null }),
  ].map((d) => toBatchDevice(d, 7));
  const clients = [
    { userId: 100, email: 'client@demo.test', username: 'Chris Client', company: 'Crescent City Parks', brandId: 10 },
    { userId: 100, email: 'client@demo.test', username: 'Chris Client', company: 'Crescent City Parks', brandId: 20 },
    { userId: 200, email: 'client2@demo.test', username: 'Casey Coastal', company: 'Gulf Coast Recreation', brandId: 20 },
    { userId: 300, email: 'nobody@demo.test', username: '', company: 'Idle Co', brandId: 99 },
  ];

  it('knows which pump a batch feeds', () => {
    expect(devices.map((d) => d.pumps)).toEqual([[1], [2], [1, 2], [1]]);
  });

  it('sends one notice per company with its own devices only, under a key naming the recall', () => {
    const notices = recallNotices({ batch: recalled, devices, clients });
    expect(notices.map((n) => n.payload.to)).toEqual(['client@demo.test', 'client2@demo.test']);
    const [first, second] = notices;
    expect(first!.payload.devices.map((d) => d.serial)).toEqual(['SP240001', 'SP240002']);
    expect(second!.payload.devices.map((d) => d.serial)).toEqual(['SP240002']);
    expect(first!.idempotencyKey).toBe('batch-recall:7:2026-11-22T14:05:09.123Z:100');
    expect(first!.payload).toMatchObject({
      clientName: 'Chris Client (Crescent City Parks)',
      batchNumber: 'SPF-2601',
      batchType: 'Sunscreen',
      recalledAt: '2026-11-22 14:05 UTC',
      paused: false,
    });
    expect(second!.payload.paused).toBe(true);
    for (const n of notices) expect(batchRecallNoticeSchema.safeParse(n.payload).success).toBe(true);
  });
});

describe('service rules with a fake repository', () => {
  const viewer = (access: 'distributor' | 'client' | 'market-partner') => ({ id: 1, access });
  /** A repository whose every call is recorded; a method not given fails the test if called. */
  const fakeRepo = (impl: Partial<BatchesRepository> = {}) => {
    const calls: string[] = [];
    const repo = new Proxy({} as BatchesRepository, {
      get: (_t, name: string) => {
        if (name === 'then') return undefined;
        if (name === 'transaction')
          return (fn: (r: BatchesRepository) => Promise<unknown>) => (calls.push('transaction'), fn(repo));
        const f = (impl as Record<string, unknown>)[name];
        return (...args: unknown[]) => {
          calls.push(name);
          if (typeof f !== 'function') throw new Error(`unexpected repository call ${name}`);
          return f(...args);
        };
      },
    });
    return { repo, calls };
  };
  const service = (repo: BatchesRepository, enqueue = vi.fn(async () => undefined)) =>
    batchesService({ repo, queue: { enqueue }, now: () => new Date(`${TODAY}T12:00:00Z`), log: () => undefined });

  it.each(['client', 'market-partner'] as const)('%s may not write: 403 before any input is read or stored', async (access) => {
    const { repo, calls } = fakeRepo();
    const s = service(repo);
    for (const call of [
      () => s.add(viewer(access), { nonsense: true }),
      () => s.edit(viewer(access), 'abc', null),
      () => s.remove(viewer(access), '1'),
      () => s.recall(viewer(access), '1', { pauseDevices: true }),
      () => s.resume(viewer(access), '1'),
    ]) {
      await expect(call()).rejects.toMatchObject({ status: 403 });
    }
    expect(calls).toEqual([]);
  });

  it('an unknown pump type code is refused before the database is asked', async () => {
    const { repo, calls } = fakeRepo();
    await expect(service(repo).choosable(viewer('distributor'), '7')).rejects.toMatchObject({
      status: 400,
      body: { detail: 'Unknown pump type code.' },
    });
    expect(calls).toEqual([]);
  });

  it('asks for choosable batches of the type, on today, for a distributor from the whole stock', async () => {
    const list = vi.fn(async () => [] as BatchUsageRow[]);
    const { repo } = fakeRepo({ list });
    await service(repo).choosable(viewer('distributor'), '2');
    expect(list).toHaveBeenCalledWith({ scope: undefined, onlyFedInScope: false, batchType: 2, choosableOn: TODAY });
  });

  it('a recall whose transaction fails queues no mail', async () => {
    const enqueue = vi.fn(async () => undefined);
    const { repo } = fakeRepo({
      byId: async () => batch(),
      markRecalled: async () => batch({ isRecalled: true, recalledAt: new Date() }),
      fedDevices: async () => [device()],
      recomputeWarnings: async () => {
        throw new Error('database went away');
      },
    });
    await expect(service(repo, enqueue).recall(viewer('distributor'), '7', {})).rejects.toThrow('database went away');
    expect(enqueue).not.toHaveBeenCalled();
  });

  it('a repeated recall queues nothing and reports it', async () => {
    const enqueue = vi.fn(async () => undefined);
    const recalled = batch({ isRecalled: true, recalledAt: new Date('2026-11-21T00:00:00Z') });
    const { repo, calls } = fakeRepo({
      byId: async () => recalled,
      fedDevices: async () => [device()],
      recomputeWarnings: async () => undefined,
      list: async () => [{ batch: recalled, deviceCount: 1, brands: [] }],
    });
    const answer = await service(repo, enqueue).recall(viewer('distributor'), '7', undefined);
    expect(answer).toMatchObject({ detail: 'Recall batch success!', already_recalled: true, notified: [], paused: 0 });
    expect(calls).not.toContain('markRecalled');
    expect(calls).not.toContain('pauseDevices');
    expect(enqueue).not.toHaveBeenCalled();
  });

  it("tells the pollers the fed devices' serials after a recall, a resume and an edit commit, and nothing when the write fails", async () => {
    const nudged: string[][] = [];
    const fed = [device(), { ...device(), id: 2, serial: 'SP240099' }];
    const { repo } = fakeRepo({
      byId: async () => batch(),
      markRecalled: async () => batch({ isRecalled: true, recalledAt: new Date() }),
      clearRecall: async () => undefined,
      fedDevices: async () => fed,
      recomputeWarnings: async () => undefined,
      clientsOfBrands: async () => [],
      lockBatchNumbers: async () => undefined,
      numberTaken: async () => false,
      update: async () => undefined,
      list: async () => [{ batch: batch(), deviceCount: 2, brands: [] }],
    });
    const s = batchesService({
      repo,
      queue: { enqueue: vi.fn(async () => undefined) },
      now: () => new Date(`${TODAY}T12:00:00Z`),
      log: () => undefined,
      devicesChanged: (serials) => nudged.push(serials),
    });
    const serials = fed.map((d) => d.serial);
    await s.recall(viewer('distributor'), '7', {});
    await s.resume(viewer('distributor'), '7');
    await s.edit(viewer('distributor'), '7', {
      batchNumber: 'B-RENAMED',
      installDate: batch().installDate,
      expiryDate: batch().expireDate,
      batchVolume: 5,
    });
    expect(nudged).toEqual([serials, serials, serials]);

    const failing = fakeRepo({ byId: async () => undefined }).repo;
    const t = batchesService({
      repo: failing,
      queue: { enqueue: vi.fn(async () => undefined) },
      now: () => new Date(),
      log: () => undefined,
      devicesChanged: (serials) => nudged.push(serials),
    });
    await expect(t.recall(viewer('distributor'), '7', {})).rejects.toMatchObject({ status: 404 });
    expect(nudged).toHaveLength(3);
  });
});
