import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { slotSql } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { devicesRepository, type DevicesRepository } from '../devices/index.ts';
import { deviceGroups, devices, maintenanceCredentials, maintenanceRecords } from '../db/schema.ts';

type Batch = { id: number; batchNo: string; expireDate: string; isRecalled: boolean };

/** A placed device as the /maintenance list needs it. */
export type MaintenanceCandidateRow = {
  id: number;
  serial: string;
  label: string;
  number: number | null;
  brandId: number | null;
  siteId: number;
  siteName: string;
  siteAddress: string;
  timezoneId: string | null;
  isMaintenance: boolean;
  isOnline: boolean;
  batteryPercent: number | null;
  warningLists: string[];
  leftPumpType: string;
  rightPumpType: string;
  volumeRemain: number;
  volumeRemain2: number;
  batch: Batch | null;
  batch2: Batch | null;
  /** The device's first pump event ever (when it started reporting), null without any. */
  firstEventAt: Date | null;
  lastRecord: { performedAt: Date; actions: string[] } | null;
};

/** Millilitres one pump dispensed in one hour-of-week slot (shared/src/rules/forecast.ts) of the window. */
export type SlotRow = { deviceId: number; pump: number; slot: number; ml: number };

export type RecordRow = {
  id: number;
  serial: string;
  label: string;
  siteName: string | null;
  siteAddress: string | null;
  timezoneId: string | null;
  actions: string[];
  note: string;
  recordedBy: string;
  performedAt: Date;
  receivedAt: Date;
  refills: { pump: 1 | 2; batchId: number; batchNo: string; recalled: boolean }[];
  crewId: string | null;
  crewName: string | null;
  hasPhoto: boolean;
  warnings: string[];
};

export interface MaintenanceRepository {
  transaction<T>(fn: (repo: MaintenanceRepository) => Promise<T>): Promise<T>;
  /** Registers a configured credential hash unless that hash was ever seen (a revoked one stays revoked). */
  registerCredential(tokenHash: string, source: string, createdBy: number | null): Promise<void>;
  credentialActive(tokenHash: string): Promise<boolean>;
  /** Revokes every active credential; answers how many. */
  revokeCredentials(at: Date): Promise<number>;
  credentialStatus(): Promise<{ active: number; lastCreatedAt: Date | null; source: string | null }>;
  /** Placed devices in scope (only those of `serials` when given). */
  candidates(scope: SQL | undefined, serials?: readonly string[]): Promise<MaintenanceCandidateRow[]>;
  slotTotals(deviceIds: number[], since: Date, until: Date): Promise<SlotRow[]>;
  deviceInScope(serial: string, scope: SQL | undefined): Promise<{ id: number } | undefined>;
  /** The device calls' repository on the same connection (a refill changes the device through the devices service). */
  devices(): DevicesRepository;
  /** Inserts a record; undefined when its idempotency key is already stored (sent twice, stored once). */
  insertRecord(values: typeof maintenanceRecords.$inferInsert): Promise<{ id: number } | undefined>;
  updateRecord(id: number, values: Partial<typeof maintenanceRecords.$inferInsert>): Promise<void>;
  recordByKey(idempotencyKey: string): Promise<{ id: number; deviceId: number } | undefined>;
  photo(id: number, scope: SQL | undefined): Promise<Buffer | null | undefined>;
  records(scope: SQL | undefined, opts: { limit: number; serial?: string | undefined; id?: number }): Promise<RecordRow[]>;
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

export function maintenanceRepository(db: Db): MaintenanceRepository {
  return {
    transaction<T>(fn: (repo: MaintenanceRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(maintenanceRepository(tx as unknown as Db)));
    },

    async registerCredential(tokenHash, source, createdBy) {
      await db.insert(maintenanceCredentials).values({ tokenHash, source, createdBy }).onConflictDoNothing();
    },

    async credentialActive(tokenHash) {
      const rows = await db
        .select({ id: maintenanceCredentials.id })
        .from(maintenanceCredentials)
        .where(and(eq(maintenanceCredentials.tokenHash, tokenHash), isNull(maintenanceCredentials.revokedAt)))
        .limit(1);
      return rows.length > 0;
    },

    async revokeCredentials(at) {
      const rows = await db
        .update(maintenanceCredentials)
        .set({ revokedAt: at })
        .where(isNull(maintenanceCredentials.revokedAt))
        .returning({ id: maintenanceCredentials.id });
      return rows.length;
    },

    async credentialStatus() {
      const [row] = rowsOf<{ active: number; last_created_at: string | Date | null; source: string | null }>(
        await db.execute(sql`
          select (select count(*)::int from maintenance_credentials where revoked_at is null) as active,
                 c.created_at as last_created_at, c.source
          from (select 1) one
          left join lateral (select created_at, source from maintenance_credentials where revoked_at is null order by created_at desc, id desc limit 1) c on true`),
      );
      return {
        active: row?.active ?? 0,
        lastCreatedAt: row?.last_created_at ? new Date(row.last_created_at) : null,
        source: row?.source ?? null,
      };
    },

    async candidates(scope, serials) {
      const batchJson = (column: SQL) =>
        sql`(select json_build_object('id', b.id, 'batchNo', b.batch_no, 'expireDate', b.expire_date, 'isRecalled', b.is_recalled) from batches b where b.id = ${column})`;
      const rows = await db
        .select({
          id: devices.id,
          serial: devices.serial,
          label: devices.label,
          number: devices.number,
          brandId: devices.brandId,
          siteId: deviceGroups.id,
          siteName: deviceGroups.name,
          siteAddress: deviceGroups.address,
          timezoneId: deviceGroups.timezoneId,
          isMaintenance: devices.isMaintenance,
          isOnline: devices.isOnline,
          batteryPercent: devices.batteryPercent,
          warningLists: devices.warningLists,
          leftPumpType: devices.leftPumpType,
          rightPumpType: devices.rightPumpType,
          volumeRemain: devices.volumeRemain,
          volumeRemain2: devices.volumeRemain2,
          batch: sql<Batch | null>`${batchJson(sql`${devices.batchId}`)}`,
          batch2: sql<Batch | null>`${batchJson(sql`${devices.batch2Id}`)}`,
          // The (device_id, occurred_at) index answers this per device without reading its history.
          firstEventAt: sql<string | null>`(select min(e.occurred_at) from pump_events e where e.device_id = ${devices.id})`,
          lastRecord: sql<{
            performedAt: string;
            actions: string[];
          } | null>`(select json_build_object('performedAt', r.performed_at, 'actions', r.actions)
            from maintenance_records r where r.device_id = ${devices.id} order by r.performed_at desc, r.id desc limit 1)`,
        })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(serials ? and(scope, inArray(devices.serial, [...serials])) : scope);
      return rows.map((r) => ({
        ...r,
        firstEventAt: r.firstEventAt ? new Date(r.firstEventAt) : null,
        lastRecord: r.lastRecord ? { performedAt: new Date(r.lastRecord.performedAt), actions: r.lastRecord.actions } : null,
      }));
    },

    async slotTotals(deviceIds, since, until) {
      if (!deviceIds.length) return [];
      const slot = sql.raw(slotSql('occurred_at'));
      return rowsOf<{ device_id: number; pump: number; slot: number; ml: number }>(
        await db.execute(sql`
          select device_id, pump_number::int as pump, ${slot} as slot, sum(volume_ml)::float8 as ml
          from pump_events
          where device_id in (${sql.join(
            deviceIds.map((id) => sql`${id}`),
            sql`, `,
          )})
            and occurred_at >= ${since.toISOString()}::timestamptz and occurred_at < ${until.toISOString()}::timestamptz
          group by 1, 2, 3`),
      ).map((r) => ({ deviceId: Number(r.device_id), pump: Number(r.pump), slot: Number(r.slot), ml: Number(r.ml) }));
    },

    async deviceInScope(serial, scope) {
      const [row] = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.serial, serial), scope));
      return row;
    },

    devices: () => devicesRepository(db),

    async insertRecord(values) {
      // A twin with the same key waits on the unique index until the first commits, then inserts nothing.
      const [row] = await db
        .insert(maintenanceRecords)
        .values(values)
        .onConflictDoNothing({ target: maintenanceRecords.idempotencyKey })
        .returning({ id: maintenanceRecords.id });
      return row;
    },

    async updateRecord(id, values) {
      await db.update(maintenanceRecords).set(values).where(eq(maintenanceRecords.id, id));
    },

    async recordByKey(idempotencyKey) {
      const [row] = await db
        .select({ id: maintenanceRecords.id, deviceId: maintenanceRecords.deviceId })
        .from(maintenanceRecords)
        .where(eq(maintenanceRecords.idempotencyKey, idempotencyKey));
      return row;
    },

    async photo(id, scope) {
      const [row] = await db
        .select({ photo: maintenanceRecords.photo })
        .from(maintenanceRecords)
        .innerJoin(devices, eq(devices.id, maintenanceRecords.deviceId))
        .where(and(eq(maintenanceRecords.id, id), scope));
      return row ? row.photo : undefined;
    },

    async records(scope, opts) {
      return db
        .select({
          id: maintenanceRecords.id,
          serial: devices.serial,
          label: devices.label,
          siteName: deviceGroups.name,
          siteAddress: deviceGroups.address,
          timezoneId: deviceGroups.timezoneId,
          actions: maintenanceRecords.actions,
          note: maintenanceRecords.note,
          recordedBy: maintenanceRecords.recordedBy,
          performedAt: maintenanceRecords.performedAt,
          receivedAt: maintenanceRecords.receivedAt,
          refills: maintenanceRecords.refills,
          crewId: maintenanceRecords.crewId,
          crewName: maintenanceRecords.crewName,
          hasPhoto: sql<boolean>`${maintenanceRecords.photo} is not null`,
          warnings: maintenanceRecords.warnings,
        })
        .from(maintenanceRecords)
        .innerJoin(devices, eq(devices.id, maintenanceRecords.deviceId))
        .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(
          and(
            scope,
            opts.serial ? eq(devices.serial, opts.serial) : undefined,
            opts.id ? eq(maintenanceRecords.id, opts.id) : undefined,
          ),
        )
        .orderBy(desc(maintenanceRecords.performedAt), desc(maintenanceRecords.id))
        .limit(opts.limit);
    },
  };
}
