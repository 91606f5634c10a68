import {
  clampTimerMinutes,
  mlPerShotForMode,
  PUMP_TYPE_CODE,
  pumpModeForMl,
  rentalDayCount,
  supportsRightPump,
  type DeviceFormInput,
  type PumpType,
  type RentalInput,
  type DevicePageQuery,
  addStatusCounts,
  emptyStatusCounts,
  type StatusCountsByCounty,
} from '@fleet/shared';
import type { z } from 'zod';
import type { pumpSettingSchema } from '@fleet/shared';
import { brandCountsScope, deviceScope, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { noAggregateCache, scopeKey, type AggregateCache } from '../lib/aggregate-cache.ts';
import { jsonArrayPieces, streamedJson, type StreamEncoding } from '../lib/streamed-json.ts';
import { keptLists } from './kept-list.ts';
import type {
  DevicePageFilter,
  DeviceRow,
  DevicesRepository,
  PendingKind,
  PumpSettingRow,
  RentalRow,
  RestorePoint,
} from './devices.repository.ts';
import { pageFilterOf } from './page-filter.ts';

export type DevicesServiceDeps = {
  repo: DevicesRepository;
  now: () => Date;
  /**
   * The list and pin answers kept per scope, ready to send (compressed forms made once), reused until a
   * portal write or the cache's expiry (lib/aggregate-cache.ts): check-ins show in them within that expiry.
   */
  cache?: AggregateCache;
  /** Devices a read of the streamed whole list takes (LIST_BATCH); tests make it small. */
  listBatchSize?: number;
  /** Sites a kept piece of the whole list covers (kept-list.ts PIECE_SITES); tests make it small. */
  listPieceSites?: number;
};

const NOT_FOUND = 'No device with this serial.';
const BAD_CURSOR = 'cursor is the nextCursor of a previous page.';

/**
 * devicePage's cursor: the last device id of the page, written 'd' + base 36 so clients treat it as a
 * token, not a number they could do arithmetic on (the order behind it may change; the token can follow).
 */
const pageCursor = {
  format: (id: number) => `d${id.toString(36)}`,
  parse(cursor: string): number {
    const id = /^d[0-9a-z]{1,12}$/.test(cursor) ? parseInt(cursor.slice(1), 36) : NaN;
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw ApiError.field('cursor', BAD_CURSOR);
    return id;
  },
};
/** What the kept counts (device_counts) are per: a page filtered by these alone can be counted from them. */
const KEPT_COUNT_FIELDS: ReadonlySet<string> = new Set<keyof DevicePageFilter>(['afterId', 'limit', 'brand', 'county', 'status']);
/** Whether no filter but those is given (any other, a new one too, is counted on `devices`). */
const keptCountable = (filter: DevicePageFilter) =>
  Object.entries(filter).every(([field, value]) => value === undefined || KEPT_COUNT_FIELDS.has(field));

/**
 * How long the whole list's compressed answer is reused (see listStream), the aggregates' 2 s (issue 46):
 * up to twice that it is still given while the next one is read behind, as the aggregates are.
 */
export const LIST_TTL_MS = 2000;
/** Compressed bytes the pin feed's kept pieces may hold, every scope together: about 1.6 MB a scope at 100,000 pins (level 5). */
const PINS_KEPT_BYTES = 16 * 1024 * 1024;

/** A text read once, as the one piece of a streamed answer. */
async function* onePiece(text: Promise<string>): AsyncGenerator<Buffer> {
  yield Buffer.from(await text);
}
/**
 * Devices a read of the whole list takes: about 0.6 MB of answers (1.2 kB each) in memory at a time, and at
 * 100,000 devices 200 reads, each a range of an index. Smaller reads live shorter: with 2,000 a read, a
 * fresh server's RSS grew by 53 MB during its first cold list of 30,000 devices, with 500 by 31 MB (the
 * rows in flight outlive young collections and wait in the old generation), in the same time.
 */
export const LIST_BATCH = 500;
/** A cached answer's size for the cache's byte budget (its compressed forms are a few percent more). */
/** Steps are fixed on this hardware (300 steps/s, 30 steps/ml): every settings write puts them back. */
const FIXED_STEPS = { stepsPerSecond: 300, stepsPerMl: 30, stepsPerSecond2: 300, stepsPerMl2: 30 };

/**
 * Device management (spec sections 2, 5 and 6): logic and access checks; SQL lives in the repository.
 * Who may do what:
 * - add, edit and delete devices, and list unplaced serials: distributors only (the add-device button
 *   and Edit Machine are theirs);
 * - device controls (activation, maintenance, anti-vandalism, pause, pump and registration setup, resetting
 *   the tsp counter, rental plans): distributors, and market partners on their own devices; the client
 *   role cannot open these panels, so the server refuses it with 403;
 * - reads: every role, within its scope. A device outside the caller's scope answers 404.
 */
export function devicesService(deps: DevicesServiceDeps) {
  const { repo, now, cache = noAggregateCache, listBatchSize = LIST_BATCH } = deps;
  const keptList = keptLists(repo, { pieceSites: deps.listPieceSites });
  // The pin feed kept the same way, by the same site versions (every change to a pin's fields is a change to its
  // device's list answer, which moves its site's version): its read after a quiet spell was its whole build,
  // 474-631 ms at 100,000 devices on a loaded host, on the way from sign-in to the map's pins.
  const keptPins = keptLists(
    {
      listPieceVersions: (pieceSites) => repo.listPieceVersions(pieceSites),
      listScopePieces: (scope, pieceSites) => repo.listScopePieces(scope, pieceSites),
      listPieceRows: (scope, from, to, pieceSites) => repo.pinPieceRows(scope, from, to, pieceSites),
    },
    // A pin is about 75 bytes, a list answer 1.2 kB: 48 pieces a read (about 600 kB of pins) make the first
    // read of 100,000 pins some 14 reads, not 105. Gzip level 5, not the list's 3: the 100,000 pins' 626 pieces
    // were 2.00 MB at level 3 and 1.64 at 5 (1.62 at 6), compressed in 54 and 74 ms in all; the feed is read
    // by every map that opens (the budget at 50 connections is this call's), and a refresh compresses only
    // the pieces whose sites changed.
    { pieceSites: deps.listPieceSites, separator: ',\n', maxBytes: PINS_KEPT_BYTES, readPieces: 48, level: 5 },
  );
  // The calendar day in UTC, the same day batches and warnings use.
  const today = () => now().toISOString().slice(0, 10);

  const requireDistributor = (v: ScopeViewer) => {
    if (v.access !== 'distributor') throw ApiError.forbidden();
  };
  const requireOperator = (v: ScopeViewer) => {
    if (v.access === 'client') throw ApiError.forbidden('The client role cannot change device settings.');
  };

  async function placedInScope(tx: DevicesRepository, viewer: ScopeViewer, serial: string): Promise<DeviceRow> {
    const row = await tx.placedInScope(serial, deviceScope(viewer));
    if (!row) throw ApiError.notFound(NOT_FOUND);
    return row;
  }

  /** The answer after a write: the caller's scope was checked before the write. */
  async function answer(serial: string) {
    return (await repo.answer(serial, undefined))!;
  }

  /**
   * The batch a pump takes, by id or batch number, with the portal's rules: it must exist and hold the
   * pump's fluid; an expired or recalled one is refused. `acceptRecalled` (a technician's record of a
   * refill already made): a batch recalled after the phone last heard of it is taken, since the pump was
   * filled with it; the device then warns (BATCH_RECALLED).
   */
  async function batchFor(
    tx: DevicesRepository,
    ref: number | string,
    pumpType: PumpType,
    field: string,
    opts: { day?: string; acceptRecalled?: boolean } = {},
  ) {
    const batch = await tx.batchByRef(ref);
    if (!batch) throw ApiError.field(field, 'Unknown batch.');
    if (batch.batchType !== PUMP_TYPE_CODE[pumpType])
      throw ApiError.field(field, `This batch does not hold ${pumpType.toLowerCase()}.`);
    if (batch.expireDate < (opts.day ?? today()))
      throw ApiError.field(
        field,
        opts.acceptRecalled ? `Batch ${batch.batchNo} had expired (${batch.expireDate}).` : 'This batch is expired or recalled.',
      );
    if (batch.isRecalled && !opts.acceptRecalled) throw ApiError.field(field, 'This batch is expired or recalled.');
    return batch;
  }
  const resolveBatch = async (tx: DevicesRepository, ref: number | string, pumpType: PumpType, field: string) =>
    (await batchFor(tx, ref, pumpType, field)).id;

  /** A pump's remaining volume back to its full reservoir (resetMl and a technician's refill), for the device to take at its wake-up. */
  async function refillVolume(tx: DevicesRepository, viewer: ScopeViewer, device: DeviceRow, pumpNumber: 1 | 2, field: string) {
    if (pumpNumber === 2 && device.rightPumpType === 'Unspecified') throw ApiError.field(field, 'This device has no right pump.');
    await tx.update(
      device.id,
      pumpNumber === 1
        ? { volumeRemain: device.reservoirMl, levelSensor1: true }
        : { volumeRemain2: device.reservoirMl, levelSensor2: true },
    );
    await pendingChange(
      tx,
      viewer,
      device,
      'other',
      `reset_ml_${pumpNumber}`,
      { pump_number: pumpNumber, volume_remain: device.reservoirMl },
      {
        devices:
          pumpNumber === 1
            ? { volumeRemain: device.volumeRemain, levelSensor1: device.levelSensor1 }
            : { volumeRemain2: device.volumeRemain2, levelSensor2: device.levelSensor2 },
      },
    );
  }

  /** Everything the Add and Edit Device forms have in common, inside the caller's transaction. */
  async function place(tx: DevicesRepository, device: DeviceRow, input: DeviceFormInput) {
    if (!(await tx.brandExists(input.brandId))) throw ApiError.field('brandId', 'Unknown brand.');
    const batchId = await resolveBatch(tx, input.batchNumber, input.leftPumpType, 'batchNumber');
    const batch2Id =
      input.rightPumpType === 'Unspecified' || input.batch2Number == null || input.batch2Number === ''
        ? null
        : await resolveBatch(tx, input.batch2Number, input.rightPumpType, 'batch2Number');
    const groupId = await tx.resolveSite({
      address: input.address,
      lat: input.location.lat,
      lng: input.location.lng,
      name: input.address.split(',')[0]!.trim(),
    });
    const clash = await tx.serialUsingNumber(groupId, input.deviceNumber, device.id);
    if (clash) throw ApiError.field('deviceNumber', `Number ${input.deviceNumber} is already used at this site (S/N ${clash}).`);
    const previousGroup = device.groupId;
    await tx.update(device.id, {
      label: input.deviceName,
      number: input.deviceNumber,
      address: input.address,
      // ~0.1 m is finer than any address fix; stored rounded so every read is short.
      lat: round6(input.location.lat),
      lng: round6(input.location.lng),
      groupId,
      brandId: input.brandId,
      locationEventType: input.locationEventType,
      leftPumpType: input.leftPumpType,
      rightPumpType: input.rightPumpType,
      batchId,
      batch2Id,
      ...(input.simcardPhoneNumber != null ? { simcardPhoneNumber: input.simcardPhoneNumber } : {}),
      ...(input.imei != null ? { imei: input.imei } : {}),
      ...(input.simSerialNumber != null ? { simSerialNumber: input.simSerialNumber } : {}),
    });
    await tx.ensurePumpSetting(defaultPumpSetting(device.id));
    if (previousGroup && previousGroup !== groupId) await tx.dropSiteIfEmpty(previousGroup);
    await tx.recomputeWarnings([device.id], today());
  }

  /** Records what the device picks up at its next wake-up (and what a cancel restores). */
  async function pendingChange(
    tx: DevicesRepository,
    viewer: ScopeViewer,
    device: DeviceRow,
    kind: PendingKind,
    setting: string,
    desired: unknown,
    previous: RestorePoint,
  ) {
    // The maintenance credential (id -1) is no user: its changes are requested by nobody in particular.
    await tx.requestChange({
      deviceId: device.id,
      kind,
      setting,
      desired,
      previous,
      requestedBy: viewer.id > 0 ? viewer.id : null,
      nextWakeup: device.nextWakeupTime,
      now: now(),
    });
  }

  async function pumpSetting(viewer: ScopeViewer, serial: string) {
    const device = await placedInScope(repo, viewer, serial);
    return pumpSettingAnswer((await repo.pumpSetting(device.id)) ?? defaultPumpSetting(device.id));
  }

  return {
    /**
     * The whole list (GET /api/v1/device) in one encoding, kept compressed only: at 100,000 devices the text
     * is 117 MB, more than the cache's whole budget, and is never held whole.
     * - gzip (what the route gives a caller accepting it): joined from pieces kept per range of sites, of
     *   which a read reads and compresses again only those whose sites changed (kept-list.ts).
     * - brotli (a caller accepting brotli alone): streamed from the database into the compressor in batches
     *   of listBatchSize devices (lib/streamed-json.ts); brotli streams compressed apart do not join.
     *
     * Either is kept per scope and encoding for LIST_TTL_MS from the end of its read; a caller who comes
     * while it is being read streams the same one (no second read). Expired, it is still given, whole, while
     * the next one is read behind (lib/aggregate-cache.ts), which replaces it once whole. A portal write
     * empties it. `fresh`: a new read, past the cache.
     */
    listStream: (viewer: ScopeViewer, encoding: StreamEncoding, fresh = false) =>
      cache.get(
        `deviceList:${scopeKey(viewer)}:${encoding}`,
        async () =>
          encoding === 'gzip'
            ? keptList.read(scopeKey(viewer), deviceScope(viewer))
            : streamedJson(encoding, jsonArrayPieces(repo.listBatches(deviceScope(viewer), listBatchSize))),
        fresh,
        { ttlMs: LIST_TTL_MS, bytes: (answer) => answer.bytes(), settled: (answer) => answer.done },
      ),
    /** The kept pieces of the whole list (for tests and benchmarks: what they hold, what was read). */
    keptList,
    /**
     * The list answers of the named devices only (GET /api/v1/device?serials=): what the cards poll reads
     * for the cards watched, instead of the whole list. Never cached: a poll diffs the database as it is.
     */
    listOf: (viewer: ScopeViewer, serials: string[]) => repo.listJson(deviceScope(viewer), serials),
    /**
     * GET /api/v1/devicePage: one page of the list, filtered here rather than in the browser (issue 46).
     * Answered as JSON text: the items are the stored list answers, joined without parsing them.
     */
    async page(viewer: ScopeViewer, query: DevicePageQuery): Promise<string> {
      const filter = pageFilterOf(query, {
        afterId: query.cursor === undefined ? undefined : pageCursor.parse(query.cursor),
        limit: query.limit,
      });
      const scope = deviceScope(viewer);
      // The total from the kept counts when every filter given is a column of them (a sum over a few rows), else counted.
      const brands = brandCountsScope(viewer);
      const [rows, total] = await Promise.all([
        repo.page(scope, filter),
        brands && keptCountable(filter) ? repo.keptTotal(brands, filter) : repo.pageTotal(scope, filter),
      ]);
      const nextCursor = rows.more && rows.lastId !== null ? pageCursor.format(rows.lastId) : null;
      return `{"items":[${rows.items.join(',')}],"nextCursor":${JSON.stringify(nextCursor)},"total":${total}}`;
    },
    /**
     * GET /api/v1/statusCounts: the /status report's counts in all and per county, counted in the database
     * (issue 46: a report of 100,000 devices does not hold them in the browser to count them). Counties in
     * id order, no county last; the sums are the per-county rows'.
     */
    async statusCounts(viewer: ScopeViewer): Promise<StatusCountsByCounty> {
      const rows = await repo.statusCounts(deviceScope(viewer));
      const counts = emptyStatusCounts();
      for (const row of rows) addStatusCounts(counts, row.counts);
      const counties = rows
        .map((row) => ({ id: row.county, counts: row.counts }))
        .sort((a, b) => (a.id === null ? 1 : b.id === null ? -1 : a.id - b.id));
      return { counts, counties };
    },
    /**
     * The compact pin feed of the same devices as the list (same scope), for the map, one tuple a line. gzip
     * (what the route gives a caller accepting it) is joined from pieces kept per range of sites, as the whole
     * list's (kept-list.ts), so a read compresses again only the pieces whose sites changed; in device order
     * within a site, sites in id order. Brotli alone: built whole and streamed. Cached as listStream is.
     */
    pinsStream: (viewer: ScopeViewer, encoding: StreamEncoding, fresh = false) =>
      cache.get(
        `devicePins:${scopeKey(viewer)}:${encoding}`,
        async () =>
          encoding === 'gzip'
            ? keptPins.read(scopeKey(viewer), deviceScope(viewer))
            : streamedJson(encoding, onePiece(repo.pinsJson(deviceScope(viewer)))),
        fresh,
        { ttlMs: LIST_TTL_MS, bytes: (answer) => answer.bytes(), settled: (answer) => answer.done },
      ),
    /** The kept pieces of the pin feed (for tests and benchmarks). */
    keptPins,
    async get(viewer: ScopeViewer, serial: string) {
      const d = await repo.answer(serial, deviceScope(viewer));
      if (!d) throw ApiError.notFound(NOT_FOUND);
      return d;
    },

    /** GET /api/v1/deviceRegistered: serial, label, brand, location_id of placed devices in scope. */
    registered: (viewer: ScopeViewer) => repo.registered(deviceScope(viewer)),

    /** GET /api/v1/avaliableDevice: serials provisioned but not placed yet (the Add Device list). */
    async available(viewer: ScopeViewer) {
      requireDistributor(viewer);
      return repo.available();
    },

    /** 404 unless the device is placed and in the caller's scope (checked again inside each write). */
    async assertPlacedInScope(viewer: ScopeViewer, serial: string): Promise<void> {
      await placedInScope(repo, viewer, serial);
    },

    async add(viewer: ScopeViewer, input: DeviceFormInput) {
      requireDistributor(viewer);
      await repo.transaction(async (tx) => {
        const device = await tx.bySerialForUpdate(input.serialNumber);
        if (!device || device.groupId != null)
          throw ApiError.field('serialNumber', 'Please select the serial number in the list above');
        await place(tx, device, input);
      });
      return answer(input.serialNumber);
    },

    async edit(viewer: ScopeViewer, serial: string, input: DeviceFormInput) {
      requireDistributor(viewer);
      if (input.serialNumber !== serial) throw ApiError.field('serialNumber', 'The serial number of a device cannot be changed.');
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (input.leftPumpType !== device.leftPumpType) throw ApiError.field('leftPumpType', 'Pump types cannot be changed.');
        if (input.rightPumpType !== device.rightPumpType) throw ApiError.field('rightPumpType', 'Pump types cannot be changed.');
        await place(tx, device, input);
      });
      return answer(serial);
    },

    /**
     * POST /api/v1/deleteDevice/{serial}: takes the device off its site. The hardware and its history
     * stay: the serial returns to the available list and can be placed again.
     */
    async remove(viewer: ScopeViewer, serial: string) {
      requireDistributor(viewer);
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx.update(device.id, {
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
        await tx.removeExclusiveAssignments(device.id);
        await tx.removeRental(device.id);
        await tx.cancelPendingChanges(device.id, now());
        await tx.dropSiteIfEmpty(device.groupId!);
        await tx.recomputeWarnings([device.id], today());
      });
      return { detail: 'Device has been deleted' };
    },

    /** POST /api/v1/set_device_config/{serial}: one of active, is_enabled_maintenance, is_enabled_vandalism. */
    async setConfig(
      viewer: ScopeViewer,
      serial: string,
      input: {
        active?: boolean | undefined;
        is_enabled_maintenance?: boolean | undefined;
        is_enabled_vandalism?: boolean | undefined;
      },
    ) {
      requireOperator(viewer);
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (input.active !== undefined) {
          const rental = await tx.rental(device.id);
          const day = today();
          if (rental && rental.startDate <= day && rental.endDate >= day) {
            throw ApiError.field('active', 'Activation cannot change while a rental plan is on.');
          }
          await tx.update(device.id, { isActivated: input.active });
          await pendingChange(
            tx,
            viewer,
            device,
            'activation',
            'active',
            { is_activated: input.active },
            { devices: { isActivated: device.isActivated } },
          );
        } else if (input.is_enabled_maintenance !== undefined) {
          await tx.update(device.id, { isEnabledMaintenance: input.is_enabled_maintenance });
          await pendingChange(
            tx,
            viewer,
            device,
            'other',
            'is_enabled_maintenance',
            { is_enabled_maintenance: input.is_enabled_maintenance },
            { devices: { isEnabledMaintenance: device.isEnabledMaintenance } },
          );
        } else if (input.is_enabled_vandalism !== undefined) {
          await tx.update(device.id, { isEnabledVandalism: input.is_enabled_vandalism });
          await pendingChange(
            tx,
            viewer,
            device,
            'other',
            'is_enabled_vandalism',
            { is_enabled_vandalism: input.is_enabled_vandalism },
            { devices: { isEnabledVandalism: device.isEnabledVandalism } },
          );
        }
      });
      return { detail: 'Your config setup has been successfully saved.', device: await answer(serial) };
    },

    async setPause(viewer: ScopeViewer, serial: string, isPause: boolean) {
      requireOperator(viewer);
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx.update(device.id, { isPause });
        await pendingChange(
          tx,
          viewer,
          device,
          'other',
          'pause',
          { is_pause: isPause },
          { devices: { isPause: device.isPause } },
        );
      });
      return answer(serial);
    },

    pumpSetting,

    /** PUT /api/v1/editPumpSetting/{serial}: pump modes 1..8 (as mode or its ml per shot) and vandalism limits. */
    async editPumpSetting(viewer: ScopeViewer, serial: string, input: z.infer<typeof pumpSettingSchema>) {
      requireOperator(viewer);
      const shot = (mode: number | undefined, ml: number | undefined, field: string) => {
        if (mode !== undefined) return mlPerShotForMode(mode);
        if (ml === undefined) return undefined;
        const m = pumpModeForMl(ml);
        if (!m) throw ApiError.field(field, 'ml_per_shot must be one of the pump modes 1 to 8 (1/4 to 2 tsp).');
        return mlPerShotForMode(m);
      };
      const mlPerShot = shot(input.pump_mode, input.ml_per_shot, 'ml_per_shot');
      const mlPerShot2 = shot(input.pump_mode2, input.ml_per_shot2, 'ml_per_shot2');
      const changes = {
        ...(mlPerShot !== undefined ? { mlPerShot } : {}),
        ...(mlPerShot2 !== undefined ? { mlPerShot2 } : {}),
        ...(input.vandalism_max_shots !== undefined ? { vandalismMaxShots: input.vandalism_max_shots } : {}),
        ...(input.vandalism_interval !== undefined ? { vandalismInterval: input.vandalism_interval } : {}),
      };
      if (!Object.keys(changes).length) throw ApiError.badRequest('Nothing to change.');
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (mlPerShot2 !== undefined && device.rightPumpType === 'Unspecified')
          throw ApiError.field('ml_per_shot2', 'This device has no right pump.');
        const old = await tx.pumpSetting(device.id);
        await tx.savePumpSetting(defaultPumpSetting(device.id), { ...changes, ...FIXED_STEPS });
        const previous = old
          ? {
              mlPerShot: old.mlPerShot,
              mlPerShot2: old.mlPerShot2,
              vandalismMaxShots: old.vandalismMaxShots,
              vandalismInterval: old.vandalismInterval,
            }
          : {};
        await pendingChange(tx, viewer, device, 'other', 'pump_setting', changes, { pumpSettings: previous });
      });
      return { detail: 'Your pump settings have been successfully updated.', ...(await pumpSetting(viewer, serial)) };
    },

    /** POST /api/v1/deviceRegistrationSetup/{serial}: sleep and awake timers in minutes, clamped to 1..600. */
    async registrationSetup(viewer: ScopeViewer, serial: string, input: { powerOffTime: number; wakeUpTime: number }) {
      requireOperator(viewer);
      const powerOff = clampTimerMinutes(input.powerOffTime);
      const wakeUp = clampTimerMinutes(input.wakeUpTime);
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx.update(device.id, { poweroffTime: String(powerOff), wakeup1Time: String(wakeUp) });
        await pendingChange(
          tx,
          viewer,
          device,
          'other',
          'registration_timer',
          { poweroff_time: powerOff, wakeup1_time: wakeUp },
          { devices: { poweroffTime: device.poweroffTime, wakeup1Time: device.wakeup1Time } },
        );
      });
      return {
        detail: 'Your time setup has been successfully saved.',
        poweroff_time: powerOff,
        wakeup1_time: wakeUp,
        device: await answer(serial),
      };
    },

    /** POST /api/v1/resetMl/{serial}: after a refill, the remaining volume of that pump is its full reservoir again. */
    async resetMl(viewer: ScopeViewer, serial: string, pumpNumber: 1 | 2) {
      requireOperator(viewer);
      await repo.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await refillVolume(tx, viewer, device, pumpNumber, 'pumpNumber');
        await tx.recomputeWarnings([device.id], today());
      });
      return answer(serial);
    },

    /**
     * A technician's refills (POST /api/v1/maintenanceRecord), inside the caller's transaction: each pump's
     * remaining volume as resetMl sets it, and its batch as the device forms set it (same fluid rule). The
     * batch must not have expired on the day of the act; one recalled meanwhile is taken and warned about.
     * The caller checked the device's scope. Answers what each pump took.
     */
    async refill(
      tx: DevicesRepository,
      viewer: ScopeViewer,
      serial: string,
      refills: { pump: 1 | 2; batch: number | string }[],
      day: string,
    ) {
      const device = await placedInScope(tx, viewer, serial);
      const out: { pump: 1 | 2; batchId: number; batchNo: string; recalled: boolean; batchChanged: boolean }[] = [];
      for (const [i, r] of refills.entries()) {
        const pumpType = (r.pump === 1 ? device.leftPumpType : device.rightPumpType) as PumpType;
        if (pumpType === 'Unspecified')
          throw ApiError.field('refills', `Refill ${i + 1}: this device has no ${r.pump === 1 ? 'left' : 'right'} pump.`);
        const batch = await batchFor(tx, r.batch, pumpType, 'refills', { day, acceptRecalled: true });
        await refillVolume(tx, viewer, device, r.pump, 'refills');
        const current = r.pump === 1 ? device.batchId : device.batch2Id;
        if (current !== batch.id) await tx.update(device.id, r.pump === 1 ? { batchId: batch.id } : { batch2Id: batch.id });
        out.push({
          pump: r.pump,
          batchId: batch.id,
          batchNo: batch.batchNo,
          recalled: batch.isRecalled,
          batchChanged: current !== batch.id,
        });
      }
      await tx.recomputeWarnings([device.id], today());
      return out;
    },

    /** POST /api/v1/cancelPendingChange/{id}: withdraw a change before the device takes it. */
    async cancelPending(viewer: ScopeViewer, id: number) {
      requireOperator(viewer);
      const serial = await repo.transaction(async (tx) => {
        const row = await tx.pendingChangeInScopeForUpdate(id, deviceScope(viewer));
        if (!row) throw ApiError.notFound('No pending change with this id.');
        if (row.change.status !== 'pending')
          throw ApiError.badRequest(`This change is no longer pending (${row.change.status}).`);
        await tx.cancelChange(row.change, now());
        await tx.recomputeWarnings([row.change.deviceId], today());
        return row.serial;
      });
      return { detail: 'The change was cancelled.', device: await answer(serial) };
    },

    async rental(viewer: ScopeViewer, serial: string) {
      const device = await placedInScope(repo, viewer, serial);
      const r = await repo.rental(device.id);
      if (!r)
        return {
          start_date: null,
          end_date: null,
          start_time: null,
          end_time: null,
          pump_2_start_time: null,
          pump_2_end_time: null,
          day_count: 0,
        };
      return rentalAnswer(r);
    },

    /** POST /api/v1/rentalV2: one plan for every selected device, all or nothing. */
    async setRental(viewer: ScopeViewer, input: RentalInput) {
      requireOperator(viewer);
      const serials = [...new Set(input.serials)];
      const saved = await repo.transaction(async (tx) => {
        const rows = await tx.placedInScopeMany(serials, deviceScope(viewer));
        const missing = serials.filter((s) => !rows.some((r) => r.serial === s));
        if (missing.length) throw new ApiError(404, { detail: `No device with serial ${missing.join(', ')}.` });
        const out = [];
        for (const device of rows) {
          const wantsPump2 = !!(input.pump2StartTime || input.pump2EndTime);
          if (wantsPump2 && !supportsRightPump({ right_pump_type: device.rightPumpType, core_ver: device.coreVer })) {
            throw ApiError.field('pump2StartTime', `Device ${device.serial} has no right pump that can be scheduled.`);
          }
          const values = {
            startDate: input.startDate,
            endDate: input.endDate,
            startTime: input.startTime ?? null,
            endTime: input.endTime ?? null,
            pump2StartTime: input.pump2StartTime ?? null,
            pump2EndTime: input.pump2EndTime ?? null,
            updatedAt: now(),
          };
          const before = await tx.rental(device.id);
          const r = await tx.saveRental(device.id, values);
          await tx.update(device.id, { active: '1' });
          const { updatedAt: _u, ...previousRental } = before ?? { updatedAt: null };
          await pendingChange(
            tx,
            viewer,
            device,
            'rental',
            'rental',
            {
              start_date: input.startDate,
              end_date: input.endDate,
              start_time: values.startTime,
              end_time: values.endTime,
              pump_2_start_time: values.pump2StartTime,
              pump_2_end_time: values.pump2EndTime,
            },
            {
              devices: { active: device.active },
              rental: before ? (previousRental as RestorePoint['rental']) : null,
            },
          );
          out.push({ serial: device.serial, ...rentalAnswer(r) });
        }
        return out;
      });
      return { detail: 'New plan has been successfully set', rentals: saved };
    },
  };
}
export type DevicesService = ReturnType<typeof devicesService>;

/** The settings of a device that has none stored yet: both pumps on mode 2, the hardware's limits. */
function defaultPumpSetting(deviceId: number): PumpSettingRow {
  return {
    deviceId,
    ...FIXED_STEPS,
    mlPerShot: mlPerShotForMode(2),
    mlPerShot2: mlPerShotForMode(2),
    vandalismMaxShots: 10,
    vandalismInterval: 60,
  };
}

function pumpSettingAnswer(s: PumpSettingRow) {
  return {
    steps_per_second: s.stepsPerSecond,
    steps_per_ml: s.stepsPerMl,
    ml_per_shot: s.mlPerShot,
    pump_mode: pumpModeForMl(s.mlPerShot),
    steps_per_second2: s.stepsPerSecond2,
    steps_per_ml2: s.stepsPerMl2,
    ml_per_shot2: s.mlPerShot2,
    pump_mode2: pumpModeForMl(s.mlPerShot2),
    vandalism_max_shots: s.vandalismMaxShots,
    vandalism_interval: s.vandalismInterval,
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const hhmm = (t: string | null) => (t ? t.slice(0, 5) : null);
function rentalAnswer(r: RentalRow) {
  return {
    start_date: r.startDate,
    end_date: r.endDate,
    start_time: hhmm(r.startTime),
    end_time: hhmm(r.endTime),
    pump_2_start_time: hhmm(r.pump2StartTime),
    pump_2_end_time: hhmm(r.pump2EndTime),
    day_count: rentalDayCount(r.startDate, r.endDate),
  };
}
