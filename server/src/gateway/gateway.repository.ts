import { and, eq, inArray, sql } from 'drizzle-orm';
import type { SynchronousCommit } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { deviceGroups, devices, pendingChanges, pumpSettings, rentals } from '../db/schema.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type NewDeviceRow = typeof devices.$inferInsert;
/** What a device's configuration is built from: the device, its pump settings, its rental and its site's zone. */
export type ConfigRow = {
  d: DeviceRow;
  s: typeof pumpSettings.$inferSelect | null;
  r: typeof rentals.$inferSelect | null;
  tz: string | null;
};
export type PendingRow = { id: number; setting: string; desired: unknown };

/** Rows of db.execute, on node-postgres ({ rows }) and PGlite ({ rows }) alike. */
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
/** What gateway_checkin_store (migration 0006) answers: the locked device row, then what the upload did and read. */
export type Stored = {
  id: number;
  batch_id: number | null;
  poweroff_time: string | null;
  wakeup1_time: string | null;
  is_pause: boolean;
  is_activated: boolean;
  is_enabled_maintenance: boolean;
  is_enabled_vandalism: boolean;
  left_pump_type: string;
  right_pump_type: string;
  battery_percent: number | null;
  level_sensor1: boolean;
  level_sensor2: boolean;
  volume_remain: number;
  volume_remain2: number;
  pump_sensor_fault: boolean;
  pe: { pump: number; ml: number; batch: number | null }[];
  lv: number;
  bt: number;
  du: number;
  sm: number;
  settled: { id: number; status: string }[];
  changes: { id: number; setting: string; desired: unknown; status: string; superseded: boolean }[];
  s1: boolean | null;
  v1: number | null;
  s2: boolean | null;
  v2: number | null;
  bp: number | null;
  bv: number | null;
  l_exp: string | null;
  l_rec: boolean | null;
  r_exp: string | null;
  r_rec: boolean | null;
  steps_per_second: number | null;
  steps_per_ml: number | null;
  ml_per_shot: number | null;
  steps_per_second2: number | null;
  steps_per_ml2: number | null;
  ml_per_shot2: number | null;
  vandalism_max_shots: number | null;
  vandalism_interval: number | null;
  has_rental: boolean;
  start_date: string | null;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  pump_2_start_time: string | null;
  pump_2_end_time: string | null;
  timezone_id: string | null;
};

/** What the gateway service needs from storage; a fake of it tests the service without a database. */
export interface GatewayRepository {
  deviceBySerial(serial: string): Promise<DeviceRow | undefined>;
  /** Stores a new keyed secret hash; the serial when the device exists. */
  setSecretHash(serial: string, hash: string): Promise<string | undefined>;
  /** The serials of the list that are already registered. */
  registeredSerials(serials: string[]): Promise<string[]>;
  insertDevices(rows: NewDeviceRow[]): Promise<void>;
  configRow(deviceId: number): Promise<ConfigRow | undefined>;
  /** Changes still waiting for the device, oldest first. */
  pendingChanges(deviceId: number): Promise<PendingRow[]>;
  /** One transaction around a check-in's two calls (migration 0006). */
  checkinTransaction<T>(body: (calls: CheckinCalls) => Promise<T>): Promise<T>;
}

/**
 * The SQL of the device gateway. `synchronousCommit` is the check-in transaction's (Config
 * checkinSynchronousCommit; PostgreSQL only, PGlite commits as it always does).
 */
export function gatewayRepository(db: Db, opts: { synchronousCommit?: SynchronousCommit } = {}): GatewayRepository {
  const commit = opts.synchronousCommit ?? 'on';
  return {
    async deviceBySerial(serial) {
      const [device] = await db.select().from(devices).where(eq(devices.serial, serial)).limit(1);
      return device;
    },
    async setSecretHash(serial, hash) {
      const [row] = await db
        .update(devices)
        .set({ secretHash: hash })
        .where(eq(devices.serial, serial))
        .returning({ serial: devices.serial });
      return row?.serial;
    },
    async registeredSerials(serials) {
      const taken = await db.select({ serial: devices.serial }).from(devices).where(inArray(devices.serial, serials));
      return taken.map((t) => t.serial);
    },
    async insertDevices(rows) {
      await db.insert(devices).values(rows);
    },
    async configRow(deviceId) {
      const [row] = await db
        .select({ d: devices, s: pumpSettings, r: rentals, tz: deviceGroups.timezoneId })
        .from(devices)
        .leftJoin(pumpSettings, eq(pumpSettings.deviceId, devices.id))
        .leftJoin(rentals, eq(rentals.deviceId, devices.id))
        .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(eq(devices.id, deviceId));
      return row;
    },
    pendingChanges(deviceId) {
      return db
        .select({ id: pendingChanges.id, setting: pendingChanges.setting, desired: pendingChanges.desired })
        .from(pendingChanges)
        .where(and(eq(pendingChanges.deviceId, deviceId), eq(pendingChanges.status, 'pending')))
        .orderBy(pendingChanges.id);
    },
    checkinTransaction: (body) => checkinTransaction(db, commit, body),
  };
}

/** The two calls of a check-in (migration 0006), inside the transaction checkinTransaction opened. */
export type CheckinCalls = {
  store(serial: string, hash: string, at: string, upload: string): Promise<Stored | null>;
  /** The last call: on PostgreSQL it commits too. */
  finish(p: string): Promise<void>;
};
type PgPoolClient = { query(text: string): Promise<unknown>; escapeLiteral(s: string): string; release(destroy?: boolean): void };

/**
 * One transaction around a check-in's two calls. On PostgreSQL (drizzle's $client is a node-postgres pool)
 * BEGIN travels with the first call and COMMIT with the last, each pair one simple-protocol message with
 * the values as escaped literals: two round trips instead of four, and the rows the finish call locks
 * (shared batch rows) are released by the same message, not after another round trip through this
 * process's event loop. PGlite, one in-process connection, runs the same calls in drizzle's transaction
 * (which keeps every other query out meanwhile).
 *
 * On PostgreSQL BEGIN is followed by the transaction's synchronous_commit (SET LOCAL, in the same message).
 * With 'off' the COMMIT returns once the WAL record is in PostgreSQL's buffers; the WAL writer flushes it
 * within three wal_writer_delay. Measured (PERFORMANCE.md): while a checkpoint or the background writer
 * kept the disk busy every committing check-in queued on WALWrite for 0.5-8 s, the p99 of check-ins at
 * 200/s during the REST round over budget in 14 of 22 runs.
 */
async function checkinTransaction<T>(db: Db, commit: SynchronousCommit, body: (calls: CheckinCalls) => Promise<T>): Promise<T> {
  const pool = (db as unknown as { $client?: { connect?: () => Promise<PgPoolClient>; totalCount?: number } }).$client;
  if (!pool?.connect || typeof pool.totalCount !== 'number') {
    return db.transaction((tx) =>
      body({
        store: async (serial, hash, at, upload) =>
          rowsOf<{ r: Stored | null }>(
            await tx.execute(sql`select gateway_checkin_store(${serial}, ${hash}, ${at}::timestamptz, ${upload}::jsonb) as r`),
          )[0]?.r ?? null,
        finish: async (p) => void (await tx.execute(sql`select gateway_checkin_finish(${p}::jsonb)`)),
      }),
    );
  }
  const client = await pool.connect();
  const lit = (v: string) => client.escapeLiteral(v);
  const results = (r: unknown) => r as { rows: { r: Stored | null }[] }[];
  let open = false;
  let broken = false;
  try {
    return await body({
      async store(serial, hash, at, upload) {
        open = true;
        const [, , stored] = results(
          await client.query(
            `begin; set local synchronous_commit = ${commit}; select gateway_checkin_store(${lit(serial)}, ${lit(hash)}, ${lit(at)}::timestamptz, ${lit(upload)}::jsonb) as r`,
          ),
        );
        return stored?.rows[0]?.r ?? null;
      },
      async finish(p) {
        await client.query(`select gateway_checkin_finish(${lit(p)}::jsonb); commit`);
        open = false;
      },
    });
  } finally {
    // Not committed (an error, or a 401 after the store call): roll back before the connection is reused.
    if (open) await client.query('rollback').catch(() => (broken = true));
    client.release(broken);
  }
}
