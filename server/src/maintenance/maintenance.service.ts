import {
  batchStatus,
  forecastDaysUntilEmpty,
  forecastText,
  forecastWindow,
  HOURS_PER_WEEK,
  LOW_BATTERY_PERCENT,
  LOW_FLUID_THRESHOLD,
  MAINTENANCE_ACTIONS,
  MAINTENANCE_BACKDATE_DAYS,
  MAINTENANCE_CLOCK_SKEW_MS,
  MAINTENANCE_PHOTO_MAX_BYTES,
  maintenanceDevicesQuerySchema,
  maintenanceRecordInputSchema,
  maintenanceRecordsQuerySchema,
  type MaintenanceAction,
  type MaintenanceDevice,
  type MaintenanceReason,
  type MaintenanceRecord,
} from '@fleet/shared';
import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { keyHash, randomKey } from '../lib/crypto.ts';
import type { DevicesService } from '../devices/index.ts';
import type { MaintenanceCandidateRow, MaintenanceRepository, SlotRow } from './maintenance.repository.ts';

export type MaintenanceServiceDeps = {
  repo: MaintenanceRepository;
  secretKey: string;
  /** MAINTENANCE_TOKEN: registered (hashed) as a credential unless it was revoked before. */
  configuredToken: string | undefined;
  publicUrl: string;
  now: () => Date;
  /** The portal's device service: a refill changes the device through it (resetMl's volume, the forms' batch rule). */
  devices: Pick<DevicesService, 'refill'>;
};

/** The caller: a user, or the maintenance credential (readOnly, username 'maintenance'). */
type Viewer = ScopeViewer & { email: string; readOnly?: boolean; username?: string };

/** A pump forecast to run dry within this many days puts the device on the list even without a warning. */
export const RUNS_OUT_SOON_DAYS = 7;
const NO_DEVICE = 'No device with this serial.';

export const isMaintenanceCredential = (viewer: Viewer) => Boolean(viewer.readOnly) && viewer.username === 'maintenance';

/**
 * The technician's views (spec section 2: /maintenance with a fixed maintenance credential, /maintenance-result
 * from the Maintenance tile). Where the spec is silent:
 * - the credential comes from configuration (MAINTENANCE_TOKEN) and is stored only as a keyed hash; a
 *   distributor may rotate it (the new value is shown once) or revoke it, and a revoked configured value
 *   stays revoked after a restart (its hash row remains) until configuration brings a new value;
 * - the credential sees every device (read-only, like a distributor) and may only record maintenance;
 * - the list holds devices in maintenance or needing it, ordered by the soonest pump forecast to run dry.
 */
export function maintenanceService(deps: MaintenanceServiceDeps) {
  const { repo } = deps;
  const hash = (key: string) => keyHash(deps.secretKey, key);
  let registered: Promise<void> | undefined;
  /** The configured credential, registered once per process before it is first checked. */
  const registerConfigured = () =>
    (registered ??= deps.configuredToken
      ? repo.registerCredential(hash(deps.configuredToken), 'configuration', null)
      : Promise.resolve());

  function requireManager(viewer: Viewer) {
    if (!isDistributor(viewer) || viewer.readOnly) throw ApiError.forbidden();
  }

  return {
    registerConfigured,

    /** Whether `key` is an active maintenance credential (the auth service asks). */
    async verifyCredential(key: string): Promise<boolean> {
      await registerConfigured();
      return repo.credentialActive(hash(key));
    },

    async credentialStatus(viewer: Viewer) {
      requireManager(viewer);
      await registerConfigured();
      const s = await repo.credentialStatus();
      return { active: s.active, last_created_at: s.lastCreatedAt?.toISOString() ?? null, source: s.source };
    },

    /** Revokes every active credential and makes a new one, answered this once (only its hash is kept). */
    async rotateCredential(viewer: Viewer) {
      requireManager(viewer);
      await registerConfigured();
      const token = randomKey(24);
      const revoked = await repo.transaction(async (tx) => {
        const n = await tx.revokeCredentials(deps.now());
        await tx.registerCredential(hash(token), 'rotation', viewer.id);
        return n;
      });
      return { token, link: `${deps.publicUrl}/maintenance#token=${token}`, revoked };
    },

    async revokeCredential(viewer: Viewer) {
      requireManager(viewer);
      await registerConfigured();
      return { revoked: await repo.revokeCredentials(deps.now()) };
    },

    /**
     * GET /maintenanceDevices: what needs a technician, soonest to run dry first. With `serials`: those
     * devices of the caller's (whatever their reasons; one out of scope is simply absent).
     */
    async devices(viewer: Viewer, query: unknown = {}): Promise<MaintenanceDevice[]> {
      const now = deps.now();
      const { serials } = parse(maintenanceDevicesQuerySchema, query ?? {});
      const rows = await repo.candidates(deviceScope(viewer), serials);
      const window = forecastWindow(now);
      const slots = await repo.slotTotals(
        rows.map((r) => r.id),
        window.start,
        window.end,
      );
      const today = now.toISOString().slice(0, 10);
      const list = rows.map((r) => toMaintenanceDevice(r, slots, now, today)).filter((d) => serials || d.reasons.length > 0);
      return list.sort(
        (a, b) =>
          (a.runs_out_in_days ?? Infinity) - (b.runs_out_in_days ?? Infinity) ||
          a.site.name.localeCompare(b.site.name) ||
          a.serial.localeCompare(b.serial),
      );
    },

    /**
     * POST /maintenanceRecord: the maintenance credential, distributors and partners on their own devices.
     * A record with an idempotency key already stored answers that record (`duplicate`), changing nothing.
     * Refills change the device in the same transaction (all or nothing).
     */
    async record(viewer: Viewer, body: unknown): Promise<{ record: MaintenanceRecord; duplicate: boolean }> {
      if (viewer.access === 'client') throw ApiError.forbidden();
      if (viewer.readOnly && !isMaintenanceCredential(viewer)) throw ApiError.forbidden();
      const input = parse(maintenanceRecordInputSchema, body ?? {});
      const now = deps.now();
      const performedAt = timeOfAct(input.performed_at, now);
      const photo = input.photo === undefined ? null : Buffer.from(input.photo, 'base64');
      if (photo && photo.length > MAINTENANCE_PHOTO_MAX_BYTES) throw ApiError.field('photo', 'The photo is larger than 1 MB.');
      const scope = deviceScope(viewer);
      const saved = await repo.transaction(async (tx) => {
        const device = await tx.deviceInScope(input.serial, scope);
        if (!device) throw ApiError.field('serial', NO_DEVICE);
        const inserted = await tx.insertRecord({
          deviceId: device.id,
          actions: input.actions,
          note: input.note,
          recordedBy: isMaintenanceCredential(viewer) ? 'maintenance' : viewer.email,
          userId: viewer.id > 0 ? viewer.id : null,
          performedAt,
          receivedAt: now,
          idempotencyKey: input.idempotency_key ?? null,
          crewId: input.crew?.id ?? null,
          crewName: input.crew?.name ?? null,
          photo,
        });
        if (!inserted) {
          const twin = (await tx.recordByKey(input.idempotency_key!))!;
          if (twin.deviceId !== device.id)
            throw new ApiError(409, { idempotency_key: ['This key was already used for a record of another device.'] });
          return { id: twin.id, duplicate: true };
        }
        if (input.refills.length) {
          // The batch must not have expired on the day of the act (UTC, the day batches use).
          const refills = await deps.devices.refill(
            tx.devices(),
            viewer,
            input.serial,
            input.refills,
            performedAt.toISOString().slice(0, 10),
          );
          const warnings = refills
            .filter((r) => r.recalled)
            .map(
              (r) =>
                `Batch ${r.batchNo} in the ${r.pump === 1 ? 'left' : 'right'} pump was recalled: the device now warns of it (Batch recalled).`,
            );
          const actions = new Set<MaintenanceAction>(input.actions);
          if (refills.some((r) => r.batchChanged)) actions.add('batch_replaced');
          await tx.updateRecord(inserted.id, {
            refills: refills.map(({ pump, batchId, batchNo, recalled }) => ({ pump, batchId, batchNo, recalled })),
            warnings,
            actions: MAINTENANCE_ACTIONS.filter((a) => actions.has(a)),
          });
        }
        return { id: inserted.id, duplicate: false };
      });
      const [answer] = await repo.records(undefined, { limit: 1, id: saved.id });
      return { record: toRecord(answer!), duplicate: saved.duplicate };
    },

    /** GET /maintenanceRecord/{id}/photo: the record's JPEG, within the caller's scope. */
    async photo(viewer: Viewer, id: number): Promise<Buffer> {
      const photo = await repo.photo(id, deviceScope(viewer));
      if (!photo) throw ApiError.notFound('No photo for this record.');
      return photo;
    },

    /** GET /maintenanceRecords: what was done, newest first, within the caller's scope. */
    async records(viewer: Viewer, query: unknown): Promise<MaintenanceRecord[]> {
      const q = parse(maintenanceRecordsQuerySchema, query ?? {});
      return (await repo.records(deviceScope(viewer), { limit: q.limit, serial: q.serial })).map(toRecord);
    },
  };
}

function toRecord(r: Awaited<ReturnType<MaintenanceRepository['records']>>[number]): MaintenanceRecord {
  return {
    id: r.id,
    serial: r.serial,
    label: r.label,
    site:
      r.siteName === null && r.siteAddress === null
        ? null
        : { name: r.siteName ?? '', address: r.siteAddress ?? '', timezone_id: r.timezoneId },
    actions: r.actions as MaintenanceAction[],
    note: r.note,
    recorded_by: r.recordedBy,
    performed_at: r.performedAt.toISOString(),
    received_at: r.receivedAt.toISOString(),
    refills: r.refills.map((f) => ({ pump: f.pump, batch_id: f.batchId, batch_no: f.batchNo, recalled: f.recalled })),
    crew: r.crewId !== null || r.crewName !== null ? { id: r.crewId ?? '', name: r.crewName ?? '' } : null,
    photo_url: r.hasPhoto ? `/api/v1/maintenanceRecord/${r.id}/photo` : null,
    warnings: r.warnings,
  };
}

/**
 * The time of the act: the phone's, accepted within the last 7 days and never in the future (a phone
 * clock up to 2 minutes ahead is taken as now). Without one, now.
 */
export function timeOfAct(performedAt: string | undefined, now: Date): Date {
  if (performedAt === undefined) return now;
  const at = new Date(performedAt);
  if (at.getTime() > now.getTime() + MAINTENANCE_CLOCK_SKEW_MS)
    throw ApiError.field('performed_at', "The time of the act is in the future: check the phone's clock.");
  if (at.getTime() < now.getTime() - MAINTENANCE_BACKDATE_DAYS * 86_400_000)
    throw ApiError.field(
      'performed_at',
      `The act is more than ${MAINTENANCE_BACKDATE_DAYS} days old: records are accepted for ${MAINTENANCE_BACKDATE_DAYS} days.`,
    );
  return at.getTime() > now.getTime() ? now : at;
}

/** One device's row: its pumps with forecasts and why it is listed (no reason: not listed). */
export function toMaintenanceDevice(r: MaintenanceCandidateRow, slots: SlotRow[], now: Date, today: string): MaintenanceDevice {
  const pumps = ([1, 2] as const)
    .filter((pump) => (pump === 1 ? r.leftPumpType : r.rightPumpType) !== 'Unspecified')
    .map((pump) => {
      const mlBySlot = new Array<number>(HOURS_PER_WEEK).fill(0);
      for (const s of slots) if (s.deviceId === r.id && s.pump === pump) mlBySlot[s.slot] = s.ml;
      const volume = pump === 1 ? r.volumeRemain : r.volumeRemain2;
      const forecast = forecastDaysUntilEmpty({ remainingMl: volume, mlBySlot, now, observedFrom: r.firstEventAt });
      const b = pump === 1 ? r.batch : r.batch2;
      const status = b ? batchStatus({ expireDate: b.expireDate, inUse: true }, today) : null;
      return {
        pump,
        pump_type: pump === 1 ? r.leftPumpType : r.rightPumpType,
        volume_remain: volume,
        low_fluid: volume <= LOW_FLUID_THRESHOLD,
        batch: b
          ? { id: b.id, batch_no: b.batchNo, status: status!, is_recalled: b.isRecalled, expire_date: b.expireDate }
          : null,
        forecast,
        forecast_text: forecastText(forecast),
      };
    });
  const days = pumps.flatMap((p) => (p.forecast.kind === 'forecast' ? [p.forecast.days] : []));
  const runsOut = days.length ? Math.min(...days) : null;
  const lowBattery = r.batteryPercent !== null && r.batteryPercent < LOW_BATTERY_PERCENT;
  const reasons: MaintenanceReason[] = [];
  if (r.isMaintenance) reasons.push('in_maintenance');
  if (r.warningLists.length) reasons.push('warning');
  if (pumps.some((p) => p.low_fluid)) reasons.push('low_fluid');
  if (lowBattery) reasons.push('low_battery');
  if (pumps.some((p) => p.batch && (p.batch.is_recalled || p.batch.status === 'EXPIRED' || p.batch.status === 'ALMOST_EXPIRED')))
    reasons.push('batch');
  if (runsOut !== null && runsOut <= RUNS_OUT_SOON_DAYS) reasons.push('runs_out_soon');
  return {
    serial: r.serial,
    label: r.label,
    number: r.number,
    brand_id: r.brandId,
    site: { id: r.siteId, name: r.siteName, address: r.siteAddress, timezone_id: r.timezoneId },
    is_maintenance: r.isMaintenance,
    is_online: r.isOnline,
    battery_percent: r.batteryPercent,
    low_battery: lowBattery,
    warning_lists: r.warningLists,
    reasons,
    pumps,
    runs_out_in_days: runsOut,
    last_record: r.lastRecord ? { performed_at: r.lastRecord.performedAt.toISOString(), actions: r.lastRecord.actions } : null,
  };
}
