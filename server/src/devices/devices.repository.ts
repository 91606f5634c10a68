import { and, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { LOW_BATTERY_PERCENT, type DeviceAnswer, type DevicePageStatus, type StatusCountsAnswer } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import {
  batches,
  batchNumberKeyOf,
  companyKeyOf,
  brands,
  deviceGroups,
  devices,
  fedByBatch,
  pendingChanges,
  pumpSettings,
  rentals,
  userExclusiveDevices,
} from '../db/schema.ts';
import { jsonArrayBytes } from '../lib/cached-json.ts';
import { resolveSite } from '../sites/index.ts';
import { recomputeWarnings } from './device-warnings.ts';
import { withListNames } from './list-names.ts';
import { cancelChange, requestChange } from './pending-changes.ts';

/** Each paged list status as a condition on `devices`: the dashboard's FILTER_RULES, in SQL. */
const PAGE_STATUS_SQL: Record<DevicePageStatus, SQL> = {
  online: sql`devices.is_online`,
  offline: sql`not devices.is_online`,
  warning: sql`devices.is_warning`,
  maintenance: sql`devices.is_maintenance`,
  pause: sql`devices.is_pause`,
  'low-battery': sql`devices.battery_percent < ${LOW_BATTERY_PERCENT}`,
  synced: sql`devices.is_registration`,
};

/**
 * A device's list answer (spec section 3) as read, over LIST_FROM_SQL: its stored answer and the brand and
 * batch names, which listText puts in (list-names.ts; in PostgreSQL, device_list_named, they were half of
 * its work for the whole list).
 */
const LIST_COLUMNS_SQL = sql`coalesce(a.list_json, device_list_json(devices)) as json, b.name as brand,
  x1.batch_no as batch, x2.batch_no as batch2`;
type ListRow = { json: string; brand: string | null; batch: string | null; batch2: string | null };
const listText = (r: ListRow) => withListNames(r.json, r.brand, r.batch, r.batch2);
/** Reads of the whole list's batches asked for at once (listBatches). */
const LIST_READS_AHEAD = 2;

/** Rows of sites in site order, grouped by piece (`pieceSites` sites a piece), each row's text in order. */
function byPiece<R extends { site: number }>(rows: readonly R[], pieceSites: number, textOf: (row: R) => string) {
  const pieces = new Map<number, string[]>();
  for (const row of rows) {
    const index = Math.floor(row.site / pieceSites);
    let items = pieces.get(index);
    if (!items) pieces.set(index, (items = []));
    items.push(textOf(row));
  }
  return pieces;
}
/** What LIST_COLUMNS_SQL reads: the device, its stored answer (migration 0022), its brand and batches. */
const LIST_FROM_SQL = sql`
  from devices
  left join device_list_answers a on a.device_id = devices.id
  left join brands b on b.id = devices.brand_id
  left join batches x1 on x1.id = devices.batch_id
  left join batches x2 on x2.id = devices.batch2_id`;

/** The device_counts column of each status (offline is total - online, one column: the expression is fixed). */
const KEPT_COUNT_COLUMN: Record<DevicePageStatus | 'total', string> = {
  total: 'total',
  online: 'online',
  offline: 'total - online',
  warning: 'warning',
  maintenance: 'maintenance',
  pause: 'pause',
  'low-battery': 'low_battery',
  synced: 'synced',
};

/** The filters of one page (GET /api/v1/devicePage), after the service has checked them. */
export type DevicePageFilter = {
  /** Only devices with a greater id (the cursor). */
  afterId?: number | undefined;
  limit: number;
  /** searchKey of what was typed (no white space, lower case), non-empty. */
  q?: string | undefined;
  brand?: number | undefined;
  county?: number | undefined;
  /** A site (device_groups.id). */
  site?: number | undefined;
  /** Not of this brand (no brand included). */
  notBrand?: number | undefined;
  /** Of no brand. */
  noBrand?: boolean | undefined;
  /** This address, exactly. */
  address?: string | undefined;
  /** searchKey of what was typed, non-empty: label, serial or address contains it. */
  search?: string | undefined;
  /** Lower-cased company names: a device of any of them. */
  partner?: string[] | undefined;
  status?: DevicePageStatus | undefined;
  /** A batch number: devices it feeds (fedByBatch). */
  batch?: string | undefined;
};
export type DevicePageRows = { items: string[]; lastId: number | null; more: boolean };

/** `%key%` for LIKE, its wildcards taken literally. */
const containing = (key: string) => `%${key.replace(/[\\%_]/g, '\\$&')}%`;

/** The SQL conditions of a page's filters (not the cursor): shared by the page, its count and selections (device-selection.ts). */
export function pageFilters(scope: SQL | undefined, f: DevicePageFilter): SQL {
  return sql.join(
    [
      sql`devices.group_id is not null`,
      scope ?? sql`true`,
      // The search rule (shared searchKey) as device_search_key, served by devices_search_idx (migration 0022).
      f.q ? sql`device_search_key(devices.label, devices.serial) like ${containing(f.q)}` : sql`true`,
      // The same rule over the address too (the address part scans: it has no index of its own).
      f.search
        ? sql`(device_search_key(devices.label, devices.serial) like ${containing(f.search)}
               or regexp_replace(lower(devices.address), '\\s+', '', 'g') like ${containing(f.search)})`
        : sql`true`,
      f.brand !== undefined ? sql`devices.brand_id = ${f.brand}` : sql`true`,
      f.notBrand !== undefined ? sql`devices.brand_id is distinct from ${f.notBrand}` : sql`true`,
      f.noBrand ? sql`devices.brand_id is null` : sql`true`,
      f.address !== undefined ? sql`devices.address = ${f.address}` : sql`true`,
      f.county !== undefined
        ? sql`devices.group_id in (select g.id from device_groups g where g.location_id = ${f.county})`
        : sql`true`,
      f.site !== undefined ? sql`devices.group_id = ${f.site}` : sql`true`,
      f.partner?.length
        ? sql`exists (select 1 from user_exclusive_devices x join users u on u.id = x.user_id
                      where x.device_id = devices.id and ${companyKeyOf(sql`u.company`)} in (${sql.join(
                        f.partner.map((name) => sql`${name}`),
                        sql`, `,
                      )}))`
        : sql`true`,
      f.status ? PAGE_STATUS_SQL[f.status] : sql`true`,
      f.batch !== undefined ? fedByBatch(f.batch) : sql`true`,
    ],
    sql` and `,
  );
}

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
  /** The list answers of the devices named (the cards poll) as JSON bytes ready to send, in the whole list's order. */
  listJson(scope: SQL | undefined, serials: string[]): Promise<Buffer>;
  /**
   * The whole list (GET /api/v1/device): each device's list answer as JSON text, in batches of about
   * `batchSize` devices (a site's devices are never split over two batches), in the list's order.
   */
  listBatches(scope: SQL | undefined, batchSize: number): AsyncGenerator<string[]>;
  /** The list version of each piece of `pieceSites` sites: the greatest of its sites' (kept-list.ts). */
  listPieceVersions(pieceSites: number): Promise<Map<number, bigint>>;
  /** The pieces of `pieceSites` sites holding a placed device in scope. */
  listScopePieces(scope: SQL, pieceSites: number): Promise<Set<number>>;
  /** The list answers in scope on the sites of pieces `from` to `to - 1`, in the list's order, by piece. */
  listPieceRows(scope: SQL | undefined, from: number, to: number, pieceSites: number): Promise<Map<number, string[]>>;
  /** The kept pin tuples (device_pins) in scope on the sites of pieces `from` to `to - 1`, by piece, as listPieceRows. */
  pinPieceRows(scope: SQL | undefined, from: number, to: number, pieceSites: number): Promise<Map<number, string[]>>;
  /** One page of placed devices in scope, in device id order: each item's list answer as JSON text. */
  page(scope: SQL | undefined, filter: DevicePageFilter): Promise<DevicePageRows>;
  /** The status report's counts of devicePage's devices in scope, per county (the site's; null for none). */
  statusCounts(scope: SQL | undefined): Promise<{ county: number | null; counts: StatusCountsAnswer }[]>;
  /** How many placed devices in scope match the page's filters (its cursor and limit aside). */
  pageTotal(scope: SQL | undefined, filter: DevicePageFilter): Promise<number>;
  /** The same number from the kept counts (device_counts): `brands` is brandCountsScope's condition. No q or partner. */
  keptTotal(brands: SQL, filter: Pick<DevicePageFilter, 'brand' | 'county' | 'status'>): Promise<number>;
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
 * each device is kept in device_list_answers by database triggers (migrations 0003, 0022) whenever the device or
 * anything it shows changes; the list is then a column read joined into one array, which keeps 10,000
 * devices inside the time budget. The single-device answer adds what the device panel shows.
 * The brand and batch names are not stored (migration 0013): the list reads put them in from a join at read
 * time (listText; the single answer through device_list_named), so renaming a brand or batch updates one
 * row instead of every device that shows it.
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
        select ${LIST_COLUMNS_SQL}
        ${LIST_FROM_SQL}
        where devices.group_id is not null and ${scope ?? sql`true`} and ${inArray(devices.serial, serials)}
        order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: ListRow[] };
      return jsonArrayBytes(res.rows.map(listText));
    },

    /**
     * Batches by site, in the list's order (group_id, number, serial; a null number last, as PostgreSQL
     * orders it): each batch takes every device of the next sites in scope, up to the site of the
     * `batchSize`-th device, so it ends on a whole site. Each read is a range of devices_list_order_idx
     * (migration 0013): no sort of the whole list (which spilled to disk at 100,000 devices).
     *
     * The ranges come first, from one count of the devices per site (an index-only scan, about 10,000 rows
     * at 100,000 devices), so the reads do not depend on each other: LIST_READS_AHEAD of them run at once, on
     * the pool's connections, while the caller compresses the batch before (issue 46: one read after the
     * other kept one of the host's two cores idle, 2.4 s for the cold list at 100,000 devices; PGlite has one
     * connection and runs them in turn). The last range is open: a site added after the count still shows.
     *
     * Each read sees the database as it is then: a device moved to another site by a write while the
     * list is read can show twice or not at all in that one answer. Such a write empties the cache
     * (lib/aggregate-cache.ts), so that answer is not given to callers who come after it.
     */
    async *listBatches(scope, batchSize) {
      const inScope = scope ?? sql`true`;
      const sites = (await db.execute(sql`
        select devices.group_id as site, count(*)::int as n from devices
        where devices.group_id is not null and ${inScope}
        group by devices.group_id order by devices.group_id`)) as unknown as { rows: { site: number; n: number }[] };
      // Upper bounds (inclusive) of each batch but the last, which is open.
      const bounds: number[] = [];
      let held = 0;
      for (const { site, n } of sites.rows) {
        held += n;
        if (held >= batchSize) {
          bounds.push(site);
          held = 0;
        }
      }
      const read = async (i: number) => {
        const after = i === 0 ? sql`true` : sql`devices.group_id > ${bounds[i - 1]}`;
        const upTo = i < bounds.length ? sql`devices.group_id <= ${bounds[i]}` : sql`true`;
        const res = (await db.execute(sql`
          select ${LIST_COLUMNS_SQL}
          ${LIST_FROM_SQL}
          where devices.group_id is not null and ${inScope} and ${after} and ${upTo}
          order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: ListRow[] };
        return res.rows.map(listText);
      };
      const reads: Promise<string[]>[] = [];
      const ask = (i: number) => {
        if (i > bounds.length) return;
        const p = read(i);
        // Awaited in its turn; a caller that stops early must not leave it an unhandled rejection.
        p.catch(() => undefined);
        reads[i] = p;
      };
      for (let i = 0; i < LIST_READS_AHEAD; i++) ask(i);
      for (let i = 0; i <= bounds.length; i++) {
        const rows = await reads[i]!;
        delete reads[i];
        ask(i + LIST_READS_AHEAD);
        if (rows.length) yield rows;
      }
    },

    async listPieceVersions(pieceSites) {
      const res = (await db.execute(sql`
        select group_id / ${pieceSites}::int as piece, max(version)::text as version
        from site_list_versions group by 1`)) as unknown as { rows: { piece: number; version: string }[] };
      return new Map(res.rows.map((r) => [Number(r.piece), BigInt(r.version)]));
    },

    async listScopePieces(scope, pieceSites) {
      const res = (await db.execute(sql`
        select distinct devices.group_id / ${pieceSites}::int as piece from devices
        where devices.group_id is not null and ${scope}`)) as unknown as { rows: { piece: number }[] };
      return new Set(res.rows.map((r) => Number(r.piece)));
    },

    async listPieceRows(scope, from, to, pieceSites) {
      const res = (await db.execute(sql`
        select devices.group_id as site, ${LIST_COLUMNS_SQL}
        ${LIST_FROM_SQL}
        where devices.group_id >= ${from * pieceSites} and devices.group_id < ${to * pieceSites}
          and ${scope ?? sql`true`}
        order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: (ListRow & { site: number })[] };
      return byPiece(res.rows, pieceSites, listText);
    },

    async pinPieceRows(scope, from, to, pieceSites) {
      // device_pins has no site column: the devices' rows give it (and the scope, written against them).
      const res = (await db.execute(sql`
        select devices.group_id as site, p.pin::text as pin
        from devices join device_pins p on p.id = devices.id
        where devices.group_id >= ${from * pieceSites} and devices.group_id < ${to * pieceSites}
          and ${scope ?? sql`true`}
        order by devices.group_id, devices.id`)) as unknown as { rows: { site: number; pin: string }[] };
      return byPiece(res.rows, pieceSites, (row) => row.pin);
    },

    /**
     * Keyset pagination on the primary key: `id > afterId order by id limit n+1` reads one index range
     * however deep the page, where an offset would read and drop every row before it. One row past the
     * limit says whether there is a next page.
     */
    async page(scope, f) {
      const res = (await db.execute(sql`
        select devices.id, ${LIST_COLUMNS_SQL}
        ${LIST_FROM_SQL}
        where ${pageFilters(scope, f)} and devices.id > ${f.afterId ?? 0}
        order by devices.id
        limit ${f.limit + 1}`)) as unknown as { rows: (ListRow & { id: number })[] };
      const rows = res.rows.slice(0, f.limit);
      return { items: rows.map(listText), lastId: rows.at(-1)?.id ?? null, more: res.rows.length > f.limit };
    },

    async statusCounts(scope) {
      // One grouped scan of the narrow device rows: read when /status opens on a fleet too large to list
      // whole, and again after pushes while it is open (at most every few seconds, pages/status).
      const res = (await db.execute(sql`
        select g.location_id as county, count(*)::int as total,
          count(*) filter (where devices.is_online)::int as online,
          count(*) filter (where not devices.is_online and devices.is_registration)::int as registering,
          count(*) filter (where not devices.is_online and not devices.is_registration)::int as offline,
          count(*) filter (where devices.is_warning)::int as warning,
          count(*) filter (where devices.is_pause)::int as paused,
          count(*) filter (where devices.is_maintenance)::int as maintenance,
          count(*) filter (where devices.battery_percent < ${LOW_BATTERY_PERCENT})::int as "lowBattery"
        from devices left join device_groups g on g.id = devices.group_id
        where ${pageFilters(scope, { limit: 0 })}
        group by g.location_id`)) as unknown as { rows: (StatusCountsAnswer & { county: number | null })[] };
      return res.rows.map(({ county, ...counts }) => ({ county, counts }));
    },

    async keptTotal(brands, f) {
      const column = sql.raw(KEPT_COUNT_COLUMN[f.status ?? 'total']);
      const res = (await db.execute(sql`
        select coalesce(sum(${column}), 0)::int as n from device_counts
        where ${brands}
          and ${f.brand !== undefined ? sql`device_counts.brand_id = ${f.brand}` : sql`true`}
          and ${f.county !== undefined ? sql`device_counts.location_id = ${f.county}` : sql`true`}`)) as unknown as {
        rows: { n: number }[];
      };
      return res.rows[0]!.n;
    },

    async pageTotal(scope, f) {
      const res = (await db.execute(sql`select count(*)::int as n from devices where ${pageFilters(scope, f)}`)) as unknown as {
        rows: { n: number }[];
      };
      return res.rows[0]!.n;
    },

    /**
     * The kept pin tuples (device_pins, migration 0025: each placed device's tuple, kept by trigger) joined
     * inside the database in id order: one text value crosses to Node, and nothing is built per pin. The table
     * is read as `devices` (its columns `id` and `brand_id` are named as there), so `scope`, deviceScope's
     * condition, applies as written. In the kept pieces' order (pinPieceRows): by site (the tuple's 7th
     * value, its group_id), then by id, so the feed's order does not depend on its encoding.
     */
    async pinsJson(scope) {
      // One tuple a line (still one JSON array): the map parses the feed a slice of lines a task
      // (client shared/lib/json-lines.ts); a raw newline cannot occur inside a JSON string.
      const res = (await db.execute(sql`
        select '[' || coalesce(string_agg(devices.pin::text, E',\n'
                                          order by (devices.pin->>6)::int, devices.id), '') || ']' as json
        from device_pins as devices where ${scope ?? sql`true`}`)) as unknown as {
        rows: { json: string }[];
      };
      return res.rows[0]!.json;
    },

    /** A placed device; an unplaced serial is only in the available list. */
    async answer(serial, scope) {
      const res = (await db.execute(sql`
        select (device_list_named(coalesce(a.list_json, device_list_json(devices)), b.name,
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
        left join device_list_answers a on a.device_id = devices.id
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
