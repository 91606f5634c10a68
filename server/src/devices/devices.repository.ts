import { and, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { PIN_BITS, type DeviceAnswer } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import {
  batches,
  batchNumberKeyOf,
  brands,
  deviceGroups,
  devices,
  pendingChanges,
  pumpSettings,
  rentals,
  userExclusiveDevices,
} from '../db/schema.ts';
import { jsonArrayBytes } from '../lib/cached-json.ts';
import { resolveSite } from '../sites/index.ts';
import { recomputeWarnings } from './device-warnings.ts';
import { cancelChange, requestChange } from './pending-changes.ts';

/**
 * A device's pin bits packed in SQL, written from shared's PIN_BITS (each flag is the devices column of the
 * same name), so the database and the browser's decodeDevicePin read one definition. Only the constant's own
 * names and numbers go into the text, never input.
 */
const PIN_BITS_SQL = sql.raw(
  Object.entries(PIN_BITS)
    .map(([flag, bit]) => `(devices.${flag}::int * ${bit})`)
    .join(' | '),
);

export type { PendingKind, RestorePoint } from './pending-changes.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceChanges = Partial<typeof devices.$inferInsert>;
export type DeviceBatchRow = typeof batches.$inferSelect;
export type PumpSettingRow = typeof pumpSettings.$inferSelect;
export type PumpSettingChanges = Partial<Omit<PumpSettingRow, 'deviceId'>>;
export type RentalRow = typeof rentals.$inferSelect;
export type RentalValues = Omit<RentalRow, 'deviceId'>;
export type PendingChangeRow = typeof pendingChanges.$inferSelect;
export type ChangeRequest = Parameters<typeof requestChange>[1];
export type SiteInput = Parameters<typeof resolveSite>[1];
export type RegisteredRow = { serial: string; label: string; brand: number | null; location_id: number | null };
export type AvailableRow = { serial: string; left_pump_type: string; right_pump_type: string; core_ver: string | null };

/**
 * What the device service needs from storage; a fake of it tests the service without a database.
 * `scope` is always a condition on `devices` (deviceScope), undefined for the whole fleet.
 */
export interface DevicesRepository {
  transaction<T>(fn: (repo: DevicesRepository) => Promise<T>): Promise<T>;
  /** The list answer as JSON bytes ready to send; `serials`: only those devices (the cards poll), in the same order. */
  listJson(scope: SQL | undefined, serials?: string[]): Promise<Buffer>;
  /** The compact pin feed of placed devices in scope, as JSON text ready to send (shared device-pin.schema). */
  pinsJson(scope: SQL | undefined): Promise<string>;
  answer(serial: string, scope: SQL | undefined): Promise<DeviceAnswer | undefined>;
  registered(scope: SQL | undefined): Promise<RegisteredRow[]>;
  available(): Promise<AvailableRow[]>;
  /** Any device with this serial, placed or not, locked for the rest of the transaction. */
  bySerialForUpdate(serial: string): Promise<DeviceRow | undefined>;
  placedInScope(serial: string, scope: SQL | undefined): Promise<DeviceRow | undefined>;
  placedInScopeMany(serials: string[], scope: SQL | undefined): Promise<DeviceRow[]>;
  brandExists(id: number): Promise<boolean>;
  batchByRef(ref: number | string): Promise<DeviceBatchRow | undefined>;
  resolveSite(input: SiteInput): Promise<number>;
  serialUsingNumber(groupId: number, number: number, exceptDeviceId: number): Promise<string | undefined>;
  update(id: number, values: DeviceChanges): Promise<void>;
  dropSiteIfEmpty(groupId: number): Promise<void>;
  removeExclusiveAssignments(deviceId: number): Promise<void>;
  cancelPendingChanges(deviceId: number, at: Date): Promise<void>;
  pumpSetting(deviceId: number): Promise<PumpSettingRow | undefined>;
  ensurePumpSetting(initial: PumpSettingRow): Promise<void>;
  savePumpSetting(initial: PumpSettingRow, changes: PumpSettingChanges): Promise<void>;
  rental(deviceId: number): Promise<RentalRow | undefined>;
  saveRental(deviceId: number, values: RentalValues): Promise<RentalRow>;
  removeRental(deviceId: number): Promise<void>;
  pendingChangeInScopeForUpdate(
    id: number,
    scope: SQL | undefined,
  ): Promise<{ change: PendingChangeRow; serial: string } | undefined>;
  requestChange(args: ChangeRequest): Promise<void>;
  cancelChange(change: PendingChangeRow, at: Date): Promise<void>;
  recomputeWarnings(deviceIds: number[], today: string): Promise<void>;
}

/**
 * The SQL of the device calls. Built on a database or on a transaction (see `transaction`).
 *
 * A device answer carries every section 3 field, so the client needs no second call. The list answer of
 * each device is kept in devices.list_json by database triggers (migration 0003) whenever the device or
 * anything it shows changes; the list is then a column read joined into one array, which keeps 10,000
 * devices inside the time budget. The single-device answer adds what the device panel shows.
 * The brand and batch names are not stored (migration 0013): device_list_named puts them in from a join
 * at read time, so renaming a brand or batch updates one row instead of every device that shows it.
 */
export function devicesRepository(db: Db): DevicesRepository {
  return {
    /**
     * Runs `fn` in one transaction, with a repository bound to it: all or nothing. The service decides
     * which steps belong together (a form is placed whole or not at all) without ever holding a
     * database handle, and a fake repository runs the same code by calling `fn` with itself.
     */
    transaction<T>(fn: (repo: DevicesRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(devicesRepository(tx as unknown as Db)));
    },

    /** Placed devices (on a site) within the caller's scope, as JSON bytes ready to send (rows joined straight into one buffer). */
    async listJson(scope, serials) {
      const res = (await db.execute(sql`
        select device_list_named(coalesce(devices.list_json, device_list_json(devices)), b.name, x1.batch_no, x2.batch_no) as json
        from devices
        left join brands b on b.id = devices.brand_id
        left join batches x1 on x1.id = devices.batch_id
        left join batches x2 on x2.id = devices.batch2_id
        where devices.group_id is not null and ${scope ?? sql`true`} and ${serials ? inArray(devices.serial, serials) : sql`true`}
        order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: { json: string }[] };
      return jsonArrayBytes(res.rows.map((r) => r.json));
    },

    /**
     * The pin tuples built and joined inside the database: one text value crosses to Node, no row objects
     * per device. Reads only narrow columns of devices (never list_json), so it costs a scan of the
     * placed devices in scope and nothing per pin in JavaScript. Bits as PIN_BITS (PIN_BITS_SQL).
     */
    async pinsJson(scope) {
      const res = (await db.execute(sql`
        select coalesce(json_agg(json_build_array(
                 devices.serial, devices.lat, devices.lng,
                 ${PIN_BITS_SQL},
                 devices.label, devices.number, devices.group_id, devices.brand_id) order by devices.id), '[]')::text as json
        from devices
        where devices.group_id is not null and ${scope ?? sql`true`}`)) as unknown as { rows: { json: string }[] };
      return res.rows[0]!.json;
    },

    /** A placed device; an unplaced serial is only in the available list. */
    async answer(serial, scope) {
      const res = (await db.execute(sql`
        select (device_list_named(coalesce(devices.list_json, device_list_json(devices)), b.name,
                                  (select x.batch_no from batches x where x.id = devices.batch_id),
                                  (select x.batch_no from batches x where x.id = devices.batch2_id))::jsonb || jsonb_build_object(
                  'timezone_id', g.timezone_id,
                  'brand_image_url', b.image_url,
                  'batch2Id', devices.batch2_id,
                  'last_seen_at', devices.last_seen_at,
                  'pending_changes', coalesce((
                    select jsonb_agg(jsonb_build_object('id', p.id, 'kind', p.kind, 'setting', p.setting, 'requested_at', p.requested_at,
                                                        'requested_by', p.requested_by, 'expected_at', p.expected_at, 'expires_at', p.expires_at)
                                     order by p.requested_at)
                    from pending_changes p where p.device_id = devices.id and p.status = 'pending'), '[]'::jsonb)))::text as json
        from devices
        left join device_groups g on g.id = devices.group_id
        left join brands b on b.id = devices.brand_id
        where devices.serial = ${serial} and devices.group_id is not null and ${scope ?? sql`true`}`)) as unknown as {
        rows: { json: string }[];
      };
      return res.rows[0] ? (JSON.parse(res.rows[0].json) as DeviceAnswer) : undefined;
    },

    /** The inner join to the site keeps unplaced serials out. */
    async registered(scope) {
      return db
        .select({ serial: devices.serial, label: devices.label, brand: devices.brandId, location_id: deviceGroups.locationId })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(scope)
        .orderBy(devices.serial);
    },

    async available() {
      return db
        .select({
          serial: devices.serial,
          left_pump_type: devices.leftPumpType,
          right_pump_type: devices.rightPumpType,
          core_ver: devices.coreVer,
        })
        .from(devices)
        .where(isNull(devices.groupId))
        .orderBy(devices.serial);
    },

    async bySerialForUpdate(serial) {
      const [row] = await db.select().from(devices).where(eq(devices.serial, serial)).for('update').limit(1);
      return row;
    },

    async placedInScope(serial, scope) {
      const [row] = await db
        .select()
        .from(devices)
        .where(and(eq(devices.serial, serial), isNotNull(devices.groupId), scope))
        .limit(1);
      return row;
    },

    async placedInScopeMany(serials, scope) {
      return db
        .select()
        .from(devices)
        .where(and(inArray(devices.serial, serials), isNotNull(devices.groupId), scope));
    },

    async brandExists(id) {
      const [brand] = await db.select({ id: brands.id }).from(brands).where(eq(brands.id, id)).limit(1);
      return !!brand;
    },

    /** A form names a batch by id or by its number (shared's batchNumberKey: case and surrounding spaces ignored). */
    async batchByRef(ref) {
      const [batch] = await db
        .select()
        .from(batches)
        .where(
          typeof ref === 'number' ? eq(batches.id, ref) : sql`${batchNumberKeyOf(batches.batchNo)} = ${batchNumberKeyOf(ref)}`,
        )
        .limit(1);
      return batch;
    },

    resolveSite(input) {
      return resolveSite(db, input);
    },

    /** The serial of another device holding this number at the site, if any. */
    async serialUsingNumber(groupId, number, exceptDeviceId) {
      const [clash] = await db
        .select({ serial: devices.serial })
        .from(devices)
        .where(and(eq(devices.groupId, groupId), eq(devices.number, number), ne(devices.id, exceptDeviceId)))
        .limit(1);
      return clash?.serial;
    },

    async update(id, values) {
      await db.update(devices).set(values).where(eq(devices.id, id));
    },

    /** A site exists for the devices on it: the last one leaving takes it away. */
    async dropSiteIfEmpty(groupId) {
      await db.execute(
        sql`delete from device_groups g where g.id = ${groupId} and not exists (select 1 from devices d where d.group_id = g.id)`,
      );
    },

    async removeExclusiveAssignments(deviceId) {
      await db.delete(userExclusiveDevices).where(eq(userExclusiveDevices.deviceId, deviceId));
    },

    async cancelPendingChanges(deviceId, at) {
      await db
        .update(pendingChanges)
        .set({ status: 'cancelled', resolvedAt: at })
        .where(and(eq(pendingChanges.deviceId, deviceId), eq(pendingChanges.status, 'pending')));
    },

    async pumpSetting(deviceId) {
      const [row] = await db.select().from(pumpSettings).where(eq(pumpSettings.deviceId, deviceId));
      return row;
    },

    /** Gives a device its first pump settings; a device that has some keeps them. */
    async ensurePumpSetting(initial) {
      await db.insert(pumpSettings).values(initial).onConflictDoNothing();
    },

    /** Writes the changes over the device's settings, starting from `initial` when it has none yet. */
    async savePumpSetting(initial, changes) {
      await db
        .insert(pumpSettings)
        .values({ ...initial, ...changes })
        .onConflictDoUpdate({ target: pumpSettings.deviceId, set: changes });
    },

    async rental(deviceId) {
      const [row] = await db.select().from(rentals).where(eq(rentals.deviceId, deviceId));
      return row;
    },

    async saveRental(deviceId, values) {
      const [row] = await db
        .insert(rentals)
        .values({ deviceId, ...values })
        .onConflictDoUpdate({ target: rentals.deviceId, set: values })
        .returning();
      return row!;
    },

    async removeRental(deviceId) {
      await db.delete(rentals).where(eq(rentals.deviceId, deviceId));
    },

    /** A pending change of a placed device in scope (whatever its status), locked for the rest of the transaction. */
    async pendingChangeInScopeForUpdate(id, scope) {
      const [row] = await db
        .select({ change: pendingChanges, serial: devices.serial })
        .from(pendingChanges)
        .innerJoin(devices, eq(devices.id, pendingChanges.deviceId))
        .where(and(eq(pendingChanges.id, id), isNotNull(devices.groupId), scope))
        .for('update')
        .limit(1);
      return row;
    },

    requestChange(args) {
      return requestChange(db, args);
    },

    cancelChange(change, at) {
      return cancelChange(db, change, at);
    },

    recomputeWarnings(deviceIds, today) {
      return recomputeWarnings(db, deviceIds, today);
    },
  };
}

export type { DeviceAnswer } from '@fleet/shared';
