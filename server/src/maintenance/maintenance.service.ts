import {
  batchStatus,
  forecastDaysUntilEmpty,
  forecastText,
  forecastWindow,
  HOURS_PER_WEEK,
  LOW_BATTERY_PERCENT,
  LOW_FLUID_THRESHOLD,
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
import type { MaintenanceCandidateRow, MaintenanceRepository, SlotRow } from './maintenance.repository.ts';

export type MaintenanceServiceDeps = {
  repo: MaintenanceRepository;
  secretKey: string;
  /** MAINTENANCE_TOKEN: registered (hashed) as a credential unless it was revoked before. */
  configuredToken: string | undefined;
  publicUrl: string;
  now: () => Date;
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
    (registered ??= deps.configuredToken ? repo.registerCredential(hash(deps.configuredToken), 'configuration', null) : Promise.resolve());

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

    /** GET /maintenanceDevices: what needs a technician, soonest to run dry first. */
    async devices(viewer: Viewer): Promise<MaintenanceDevice[]> {
      const now = deps.now();
      const rows = await repo.candidates(deviceScope(viewer));
      const window = forecastWindow(now);
      const slots = await repo.slotTotals(rows.map((r) => r.id), window.start, window.end);
      const today = now.toISOString().slice(0, 10);
      const list = rows.map((r) => toMaintenanceDevice(r, slots, now, today)).filter((d) => d.reasons.length > 0);
      return list.sort(
        (a, b) =>
          (a.runs_out_in_days ?? Infinity) - (b.runs_out_in_days ?? Infinity) ||
          a.site.name.localeCompare(b.site.name) ||
          a.serial.localeCompare(b.serial),
      );
    },

    /** POST /maintenanceRecord: the maintenance credential, distributors and partners on their own devices. */
    async record(viewer: Viewer, body: unknown): Promise<MaintenanceRecord> {
      if (viewer.access === 'client') throw ApiError.forbidden();
      if (viewer.readOnly && !isMaintenanceCredential(viewer)) throw ApiError.forbidden();
      const input = parse(maintenanceRecordInputSchema, body ?? {});
      return repo.transaction(async (tx) => {
        const device = await tx.deviceInScope(input.serial, deviceScope(viewer));
        if (!device) throw ApiError.field('serial', NO_DEVICE);
        const row = await tx.insertRecord({
          deviceId: device.id,
          actions: input.actions,
          note: input.note,
          recordedBy: isMaintenanceCredential(viewer) ? 'maintenance' : viewer.email,
          userId: viewer.id > 0 ? viewer.id : null,
          performedAt: deps.now(),
        });
        const [answer] = await tx.records(undefined, { limit: 1, id: row.id });
        return toRecord(answer!);
      });
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
    site: r.siteName === null && r.siteAddress === null ? null : { name: r.siteName ?? '', address: r.siteAddress ?? '', timezone_id: r.timezoneId },
    actions: r.actions as MaintenanceAction[],
    note: r.note,
    recorded_by: r.recordedBy,
    performed_at: r.performedAt.toISOString(),
  };
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
        batch: b ? { id: b.id, batch_no: b.batchNo, status: status!, is_recalled: b.isRecalled, expire_date: b.expireDate } : null,
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
  if (pumps.some((p) => p.batch && (p.batch.is_recalled || p.batch.status === 'EXPIRED' || p.batch.status === 'ALMOST_EXPIRED'))) reasons.push('batch');
  if (runsOut !== null && runsOut <= RUNS_OUT_SOON_DAYS) reasons.push('runs_out_soon');
  return {
    serial: r.serial,
    label: r.label,
    number: r.number,
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
