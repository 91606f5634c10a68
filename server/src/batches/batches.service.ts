import {
  addBatchSchema,
  BATCH_MESSAGES,
  BATCH_STATUS_LABEL,
  type BatchAnswer,
  batchDayOf,
  type BatchDevice,
  batchStatus,
  batchTypeName,
  displayFlOz,
  editBatchSchema,
  flOzToLitres,
  formatNumber,
  plural,
  pluralWord,
  pumpTypeCodeSchema,
  type RecallBatchAnswer,
  recallBatchSchema,
  type ResumeBatchAnswer,
  roundVolume,
} from '@fleet/shared';
import type { batchRecallNoticeSchema, JobName, JobQueue } from '@fleet/workers';
import type { z } from 'zod';
import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError, isUniqueViolation, parse } from '../lib/errors.ts';
import {
  type BatchesRepository,
  type BatchRow,
  type BatchUsageRow,
  type BrandClientRow,
  type FedDeviceRow,
} from './batches.repository.ts';

export type BatchesServiceDeps = {
  repo: BatchesRepository;
  queue: Pick<JobQueue<JobName>, 'enqueue'>;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  /**
   * Told, after the commit, the serials whose device answers a write changed (a batch's number, expiry,
   * volume, recall): the pollers read those devices now instead of at their next period, so every screen
   * watching them sees the change within a second (issue 16). The poll and diff still decide what is pushed.
   */
  devicesChanged?: (serials: string[]) => void;
};

const NOT_FOUND = 'No batch with this id.';
/** Largest PostgreSQL integer: a bigger id cannot exist, and sending it to the database would fail. */
const MAX_ID = 2_147_483_647;

/** The batch calls of spec section 7: logic and access checks; SQL lives in the repository. */
export function batchesService(deps: BatchesServiceDeps) {
  const { repo } = deps;
  const devicesChanged = deps.devicesChanged ?? (() => undefined);
  // The day batch expiry is judged on (the same for the warnings of the devices a batch feeds).
  const today = () => batchDayOf(deps.now());

  /** The answer of one batch after a write: the whole fleet, since only distributors write. */
  async function answerOf(tx: BatchesRepository, id: number): Promise<BatchAnswer> {
    const [row] = await tx.list({ scope: undefined, onlyFedInScope: false, id });
    if (!row) throw ApiError.notFound(NOT_FOUND);
    return toBatchAnswer(row, today());
  }

  /** Maps the race the advisory lock should already prevent to the same message the check gives. */
  async function guardDuplicate<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw ApiError.field('batchNumber', BATCH_MESSAGES.duplicateNumber);
      throw err;
    }
  }

  return {
    /** GET /batch: the Batch List. Clients and partners see the batches feeding their devices only. */
    async list(viewer: ScopeViewer): Promise<BatchAnswer[]> {
      const rows = await repo.list({ scope: deviceScope(viewer), onlyFedInScope: !isDistributor(viewer) });
      const day = today();
      return sortForBatchList(rows.map((r) => toBatchAnswer(r, day)));
    },

    /**
     * GET /batch/{pumpTypeCode}: the batches a device form may offer for a pump of that type.
     * EXPIRED batches are excluded (spec section 4), and so are recalled ones: a recalled lot must
     * never be put into a pump again, and offering it would let a form undo the recall's purpose.
     * Distributors choose from the whole stock; others from the batches already feeding their devices.
     */
    async choosable(viewer: ScopeViewer, pumpTypeCode: unknown): Promise<BatchAnswer[]> {
      const code = pumpTypeCodeSchema.safeParse(pumpTypeCode);
      if (!code.success) throw ApiError.badRequest(BATCH_MESSAGES.unknownPumpTypeCode);
      const day = today();
      const distributor = isDistributor(viewer);
      const rows = await repo.list({
        scope: distributor ? undefined : deviceScope(viewer),
        onlyFedInScope: !distributor,
        batchType: code.data,
        choosableOn: day,
      });
      return sortForBatchList(rows.map((r) => toBatchAnswer(r, day)));
    },

    /** POST /addBatch: volume entered in fl.oz., stored in litres; a new batch is full. */
    async add(viewer: ScopeViewer, body: unknown): Promise<BatchAnswer> {
      requireDistributor(viewer);
      const input = parse(addBatchSchema, body ?? {});
      const litres = flOzToLitres(input.batchVolume);
      return guardDuplicate(() =>
        repo.transaction(async (tx) => {
          await tx.lockBatchNumbers();
          if (await tx.numberTaken(input.batchNumber)) throw ApiError.field('batchNumber', BATCH_MESSAGES.duplicateNumber);
          const row = await tx.insert({
            batchNo: input.batchNumber,
            batchType: input.batchType,
            installDate: input.installDate,
            expireDate: input.expiryDate,
            volumeLitres: litres,
            remainLitres: litres,
          });
          return answerOf(tx, row.id);
        }),
      );
    },

    /** POST /editBatch/{id}: the type never changes; the warnings of fed devices follow the new expiry. */
    async edit(viewer: ScopeViewer, idParam: unknown, body: unknown): Promise<BatchAnswer> {
      requireDistributor(viewer);
      const id = parseBatchId(idParam);
      const input = parse(editBatchSchema, body ?? {});
      const answer = await guardDuplicate(() =>
        repo.transaction(async (tx) => {
          await tx.lockBatchNumbers();
          const current = await tx.byId(id, { lock: true });
          if (!current) throw ApiError.notFound(NOT_FOUND);
          if (input.batchType != null && input.batchType !== current.batchType) {
            throw ApiError.field('batchType', BATCH_MESSAGES.typeChanged);
          }
          if (await tx.numberTaken(input.batchNumber, id)) throw ApiError.field('batchNumber', BATCH_MESSAGES.duplicateNumber);
          const volume = editedVolume(current, input.batchVolume);
          await tx.update(id, {
            batchNo: input.batchNumber,
            installDate: input.installDate,
            expireDate: input.expiryDate,
            volumeLitres: volume.volumeLitres,
            remainLitres: volume.remainLitres,
          });
          // Warnings depend on a batch's expiry (and recall), not its number or volume: a rename or a volume
          // change reads and writes no device row, so it stays fast and never holds rows check-ins need.
          if (input.expiryDate !== current.expireDate) {
            const fed = await tx.fedDevices(id);
            await tx.recomputeWarnings(
              fed.map((d) => d.id),
              today(),
            );
          }
          return answerOf(tx, id);
        }),
      );
      // Read after the commit, outside the transaction: a rename still holds no device row.
      devicesChanged((await repo.fedDevices(id)).map((d) => d.serial));
      return answer;
    },

    /** POST /deleteBatch/{id}: never while a pump is fed by it (the device would silently lose its batch). */
    async remove(viewer: ScopeViewer, idParam: unknown): Promise<{ detail: string }> {
      requireDistributor(viewer);
      const id = parseBatchId(idParam);
      await repo.transaction(async (tx) => {
        // The row lock also blocks a device form from pointing a device at the batch meanwhile.
        if (!(await tx.byId(id, { lock: true }))) throw ApiError.notFound(NOT_FOUND);
        const n = await tx.countFedDevices(id);
        if (n > 0) throw ApiError.badRequest(inUseMessage(n));
        await tx.remove(id);
      });
      return { detail: BATCH_MESSAGES.deleted };
    },

    /**
     * POST /recallBatch/{id}: the key safety action. In one transaction: mark the batch recalled,
     * optionally pause every device it feeds (with the pending change each device picks up), and
     * recompute their warnings (BATCH_RECALLED). After commit, one notice per client company, listing
     * only the devices of its own brands. A repeated recall mails nobody again (and the job ledger
     * would refuse the same key anyway), but still pauses devices if asked to.
     */
    async recall(viewer: ScopeViewer, idParam: unknown, body: unknown): Promise<RecallBatchAnswer> {
      requireDistributor(viewer);
      const id = parseBatchId(idParam);
      const input = parse(recallBatchSchema, body ?? {});
      const at = deps.now();
      const outcome = await repo.transaction(async (tx) => {
        const current = await tx.byId(id, { lock: true });
        if (!current) throw ApiError.notFound(NOT_FOUND);
        const recalled = current.isRecalled ? undefined : await tx.markRecalled(id, at);
        const fed = await tx.fedDevices(id);
        const pausedIds = new Set(input.pauseDevices ? await tx.pauseDevices(fed, viewer.id, at) : []);
        await tx.recomputeWarnings(
          fed.map((d) => d.id),
          today(),
        );
        const clients = recalled ? await tx.clientsOfBrands(uniqueBrandIds(fed)) : [];
        const devices = fed.map((d) => toBatchDevice({ ...d, isPause: d.isPause || pausedIds.has(d.id) }, id));
        return { batch: await answerOf(tx, id), recalled, devices, clients, paused: pausedIds.size };
      });

      devicesChanged(outcome.devices.map((d) => d.serial));
      const notified: RecallBatchAnswer['notified'] = [];
      if (outcome.recalled) {
        for (const notice of recallNotices({ batch: outcome.recalled, devices: outcome.devices, clients: outcome.clients })) {
          try {
            await deps.queue.enqueue('batch-recall-notice', notice.payload, { idempotencyKey: notice.idempotencyKey });
            notified.push({
              email: notice.payload.to,
              name: notice.name,
              company: notice.company,
              devices: notice.payload.devices.length,
            });
          } catch (err) {
            // The recall stands (it is committed); a notice that cannot be queued is logged, not fatal.
            deps.log(`batch ${id}: recall notice for client ${notice.userId} not queued`, err);
          }
        }
      }
      return {
        detail: BATCH_MESSAGES.recalled,
        batch: outcome.batch,
        devices: outcome.devices,
        paused: outcome.paused,
        already_recalled: !outcome.recalled,
        notified,
      };
    },

    /**
     * POST /resumeBatch/{id}: lifts the recall and its warnings. Devices paused by the recall stay
     * paused on purpose: someone should look at each pump before it dispenses again. The answer lists
     * them so the caller can resume them one by one.
     */
    async resume(viewer: ScopeViewer, idParam: unknown): Promise<ResumeBatchAnswer> {
      requireDistributor(viewer);
      const id = parseBatchId(idParam);
      const answer = await repo.transaction(async (tx) => {
        const current = await tx.byId(id, { lock: true });
        if (!current) throw ApiError.notFound(NOT_FOUND);
        if (current.isRecalled) await tx.clearRecall(id);
        const fed = await tx.fedDevices(id);
        await tx.recomputeWarnings(
          fed.map((d) => d.id),
          today(),
        );
        const devices = fed.map((d) => toBatchDevice(d, id));
        const stillPaused = devices.filter((d) => d.is_pause).length;
        return {
          detail: BATCH_MESSAGES.resumed,
          batch: await answerOf(tx, id),
          devices,
          still_paused: stillPaused,
          note: stillPaused
            ? `${formatNumber(stillPaused)} of the ${plural(devices.length, 'device')} fed by this batch ${pluralWord(stillPaused, 'is', 'are')} still paused: resume each with POST /api/v1/setPauseDevice/{serial} {"isPause": false} once its pump is checked.`
            : 'No device fed by this batch is paused.',
        };
      });
      devicesChanged(answer.devices.map((d) => d.serial));
      return answer;
    },
  };
}

// ---------------------------------------------------------------- pure parts (unit tested)

function requireDistributor(viewer: ScopeViewer): void {
  // The client and market partners have no add-batch, edit or recall controls (spec section 6).
  if (!isDistributor(viewer)) throw ApiError.forbidden('Only a distributor can manage batches.');
}

/** A path id: 400 when it is not a whole number, 404 when it cannot name a batch. */
export function parseBatchId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,12}$/.test(raw)) throw ApiError.badRequest('Batch id must be a positive whole number.');
  const id = Number(raw);
  if (id < 1 || id > MAX_ID) throw ApiError.notFound(NOT_FOUND);
  return id;
}

export function inUseMessage(n: number): string {
  return `Batch is in use by ${plural(n, 'device')}.`;
}

/** One batch in the spec's section 3 shape (both spellings), status from the shared rule. */
export function toBatchAnswer(row: BatchUsageRow, today: string): BatchAnswer {
  const b = row.batch;
  const inUse = row.deviceCount > 0;
  const status = batchStatus({ expireDate: b.expireDate, inUse }, today);
  return {
    id: b.id,
    batchType: b.batchType,
    batch_type: b.batchType,
    batch_type_name: batchTypeName(b.batchType),
    batchNumber: b.batchNo,
    batch_no: b.batchNo,
    installDate: b.installDate,
    install_date: b.installDate,
    expiryDate: b.expireDate,
    expire_date: b.expireDate,
    batchVolume: displayFlOz(b.volumeLitres),
    // Micro-litres are below any meaning; rounding hides float noise like 9.995843000000001.
    volume: roundVolume(b.volumeLitres, 6),
    remain: roundVolume(b.remainLitres, 6),
    remain_fl_oz: displayFlOz(b.remainLitres),
    created_on: b.createdOn.toISOString(),
    in_use: inUse,
    is_using: inUse,
    device_count: row.deviceCount,
    status,
    status_label: BATCH_STATUS_LABEL[status],
    is_recalled: b.isRecalled,
    recalled_at: b.recalledAt?.toISOString() ?? null,
    brand_lists: [...row.brands].sort((x, y) => x.name.localeCompare(y.name) || x.id - y.id),
  };
}

/** Batch List order (spec section 2): expired batches last, then by batch number (SPF-2 before SPF-10). */
export function sortForBatchList(list: BatchAnswer[]): BatchAnswer[] {
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  return [...list].sort(
    (a, b) =>
      Number(a.status === 'EXPIRED') - Number(b.status === 'EXPIRED') || collator.compare(a.batch_no, b.batch_no) || a.id - b.id,
  );
}

/**
 * An edited total volume. The edit corrects how much the batch held; what was already dispensed
 * (volume - remain) stays dispensed, so remain moves by the same delta, within 0..volume.
 * Re-sending the volume the card showed (rounded to 2 decimals) changes nothing, so saving the
 * popup to fix a date never nudges the remaining volume by a rounding error.
 */
export function editedVolume(current: Pick<BatchRow, 'volumeLitres' | 'remainLitres'>, batchVolumeFlOz: number) {
  if (roundVolume(batchVolumeFlOz, 2) === displayFlOz(current.volumeLitres)) {
    return { volumeLitres: current.volumeLitres, remainLitres: current.remainLitres };
  }
  const volumeLitres = flOzToLitres(batchVolumeFlOz);
  const remainLitres = Math.min(volumeLitres, Math.max(0, current.remainLitres + (volumeLitres - current.volumeLitres)));
  return { volumeLitres, remainLitres };
}

/** Which pump(s) of a device a batch feeds: 1 left (batch_id), 2 right (batch2_id). */
export function toBatchDevice(d: FedDeviceRow, batchId: number): BatchDevice {
  const pumps: (1 | 2)[] = [];
  if (d.batchId === batchId) pumps.push(1);
  if (d.batch2Id === batchId) pumps.push(2);
  return {
    id: d.id,
    serial: d.serial,
    label: d.label,
    address: d.address,
    brand_id: d.brandId,
    brand_name: d.brandName,
    pumps,
    is_pause: d.isPause,
  };
}

function uniqueBrandIds(devices: { brandId: number | null }[]): number[] {
  return [...new Set(devices.flatMap((d) => (d.brandId == null ? [] : [d.brandId])))];
}

export type RecallNotice = {
  userId: number;
  name: string;
  company: string;
  idempotencyKey: string;
  payload: z.input<typeof batchRecallNoticeSchema>;
};

/**
 * One notice per client company assigned to a brand of an affected device, listing only the devices
 * of its own brands: a company never learns about another company's sites. A client assigned to two
 * affected brands gets one mail with both. The key names the recall instant, so a recall after a
 * resume notifies again while a retried or repeated request does not.
 */
export function recallNotices(args: { batch: BatchRow; devices: BatchDevice[]; clients: BrandClientRow[] }): RecallNotice[] {
  const { batch, devices, clients } = args;
  const recalledAt = batch.recalledAt ?? new Date();
  const byClient = new Map<number, { client: BrandClientRow; brandIds: Set<number> }>();
  for (const c of clients) {
    const entry = byClient.get(c.userId) ?? { client: c, brandIds: new Set<number>() };
    entry.brandIds.add(c.brandId);
    byClient.set(c.userId, entry);
  }
  const notices: RecallNotice[] = [];
  for (const { client, brandIds } of byClient.values()) {
    const own = devices.filter((d) => d.brand_id != null && brandIds.has(d.brand_id));
    if (!own.length) continue;
    const name = client.username.trim() || client.company.trim() || client.email;
    notices.push({
      userId: client.userId,
      name,
      company: client.company,
      idempotencyKey: `batch-recall:${batch.id}:${recalledAt.toISOString()}:${client.userId}`,
      payload: {
        to: client.email,
        clientName: client.company.trim() && client.company.trim() !== name ? `${name} (${client.company.trim()})` : name,
        batchNumber: batch.batchNo,
        batchType: batchTypeName(batch.batchType),
        recalledAt: formatRecalledAt(recalledAt),
        // Told "paused" only when every listed pump really is paused, never on a partial pause.
        paused: own.every((d) => d.is_pause),
        devices: own.map((d) => ({ serial: d.serial, label: d.label, address: d.address, pumps: d.pumps })),
      },
    });
  }
  return notices;
}

/** '2026-11-22 14:05 UTC': what a person reads in the notice (the key keeps the exact instant). */
function formatRecalledAt(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
