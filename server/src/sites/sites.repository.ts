import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { keptBrandIn, type KeptScope } from './kept-scope.ts';

type Rows<T> = { rows: T[] };

/** A site with its devices in scope; brand and batch ids still as ids (batch ids may repeat). */
export type SiteRow = {
  id: number;
  name: string;
  address: string;
  lat: number;
  lng: number;
  location: number | null;
  client: number | null;
  timezone_id: string | null;
  devices: { serial: string; number: number | null }[];
  brand_ids: number[];
  batch_ids: number[];
  total_devices: number;
  online_devices: number;
  offline_devices: number;
  warning_devices: number;
};

/** A county with its outline and the counts of the devices in scope (the COUNTY cards). */
export type CountyRow = Record<string, unknown>;

/** Only the sites in a view (GET /api/v1/deviceGroup's query): a box of [south, west, north, east], a county. */
export type SitesView = { bbox?: [number, number, number, number] | undefined; county?: number | undefined };

/** What the sites service needs from storage; a fake of it tests the service without a database. */
export interface SitesRepository {
  /** Sites holding a device of `scope` (undefined: every placed device), counted over those devices only. */
  sites(scope: SQL | undefined, view?: SitesView): Promise<SiteRow[]>;
  /**
   * GET /api/v1/deviceGroup's whole answer as JSON text, read from the kept aggregates (site_members,
   * site_counts: migration 0025) for a scope of brands: the sites service's answer, built in the database.
   */
  keptSitesJson(kept: KeptScope, view?: SitesView): Promise<string>;
  brandNames(): Promise<Map<number, string>>;
  /**
   * GET /api/v1/siteNames' answer as JSON text: `[id, name]` of each site in the view holding a device of
   * `scope`, in id order; the name is the site's name, else its address, trimmed; sites with neither left out.
   */
  siteNamesJson(scope: SQL | undefined, view: SitesView): Promise<string>;
  /** Counties with the counts of the devices of `scope`; `withoutDevices` keeps counties with none. */
  counties(scope: SQL | undefined, withoutDevices: boolean): Promise<CountyRow[]>;
  /** The same rows from the kept counts per brand and county (device_counts, migration 0023). */
  keptCounties(kept: KeptScope, withoutDevices: boolean): Promise<CountyRow[]>;
  /** A site's coordinates when it holds a device of `scope`; undefined otherwise. */
  siteInScope(scope: SQL | undefined, id: number): Promise<{ lat: number; lng: number } | undefined>;
  /** Stores a site's zone when the site holds a device of `scope`; undefined otherwise. */
  setTimezone(scope: SQL | undefined, id: number, timezoneId: string): Promise<{ id: number; timezone_id: string } | undefined>;
}

/** The sites of a view, as a condition on `device_groups g`. */
function inView(view: SitesView): SQL {
  const box = view.bbox
    ? sql`g.lat between ${view.bbox[0]} and ${view.bbox[2]} and g.lng between ${view.bbox[1]} and ${view.bbox[3]}`
    : sql`true`;
  const county = view.county !== undefined ? sql`g.location_id = ${view.county}` : sql`true`;
  return sql`${box} and ${county}`;
}

/** One aggregate query each, so the lists stay fast with thousands of sites. */
export function sitesRepository(db: Db): SitesRepository {
  const inScope = (scope: SQL | undefined) => scope ?? sql`true`;
  return {
    async keptSitesJson(kept, view = {}) {
      // The whole fleet reads each site's own row (brand -1); a client its own rows.
      const members = kept.fleet
        ? sql`m as (select group_id, devices, brand_ids, batch_ids from site_members where brand_id = -1)`
        : sql`m as (select group_id, devices, brand_ids, batch_ids from site_client_members where client_id = ${kept.client})`;
      // The keys in the order the service writes them (sites.service.ts deviceGroups); brands named, unknown
      // ones '' as there; batches once each, ascending. One text value crosses to Node: nothing is parsed or
      // built per site there (at 100,000 devices that was most of a rebuild's time on the main thread).
      const res = (await db.execute(sql`
        with ${members},
        c as (select group_id, sum(total)::int as total, sum(online)::int as online, sum(warning)::int as warning
              from site_counts where total > 0 and ${keptBrandIn(kept, 'site_counts.brand_id')} group by group_id)
        select coalesce(json_agg(json_build_object(
                 'id', g.id, 'name', g.name, 'address', g.address, 'lat', g.lat, 'lng', g.lng, 'location', g.location_id,
                 'client', g.client_id, 'timezone_id', g.timezone_id, 'devices', m.devices, 'total_devices', c.total,
                 'online_devices', c.online, 'offline_devices', c.total - c.online, 'warning_devices', c.warning,
                 'brand_list', (select coalesce(json_agg(json_build_object('id', u.id, 'name', coalesce(b.name, '')) order by u.n), '[]')
                                from unnest(m.brand_ids) with ordinality as u(id, n) left join brands b on b.id = u.id),
                 'batchIds', (select coalesce(json_agg(x.id order by x.id), '[]') from (select distinct unnest(m.batch_ids) as id) x)
               ) order by g.id), '[]')::text as json
        from device_groups g
        join m on m.group_id = g.id
        join c on c.group_id = g.id
        where ${inView(view)}`)) as unknown as Rows<{ json: string }>;
      return res.rows[0]!.json;
    },

    async sites(scope, view = {}) {
      // Brand and batch ids are aggregated as integer arrays (cheap) and brands named from one small lookup.
      const res = (await db.execute(sql`
        select g.id, g.name, g.address, g.lat, g.lng, g.location_id as location, g.client_id as client, g.timezone_id,
               json_agg(json_build_object('serial', devices.serial, 'number', devices.number) order by devices.number, devices.serial) as devices,
               array_remove(array_agg(distinct devices.brand_id), null) as brand_ids,
               array_remove(array_agg(distinct devices.batch_id) || array_agg(distinct devices.batch2_id), null) as batch_ids,
               count(*)::int as total_devices,
               (count(*) filter (where devices.is_online))::int as online_devices,
               (count(*) filter (where not devices.is_online))::int as offline_devices,
               (count(*) filter (where devices.is_warning))::int as warning_devices
        from device_groups g
        join devices on devices.group_id = g.id
        where ${inScope(scope)} and ${inView(view)}
        group by g.id
        order by g.id`)) as unknown as Rows<SiteRow>;
      return res.rows;
    },

    async siteNamesJson(scope, view) {
      // The same sites as sites(scope, view): each holding a device in scope (devices_group_idx per site).
      const res = (await db.execute(sql`
        select coalesce(json_agg(json_build_array(n.id, n.name) order by n.id), '[]')::text as json
        from (select g.id, btrim(coalesce(nullif(btrim(g.name), ''), g.address, '')) as name
              from device_groups g
              where ${inView(view)} and exists (select 1 from devices where devices.group_id = g.id and ${inScope(scope)})) n
        where n.name <> ''`)) as unknown as Rows<{ json: string }>;
      return res.rows[0]!.json;
    },

    async brandNames() {
      const res = (await db.execute(sql`select id, name from brands`)) as unknown as Rows<{ id: number; name: string }>;
      return new Map(res.rows.map((b) => [b.id, b.name]));
    },

    async counties(scope, withoutDevices) {
      const res = (await db.execute(sql`
        select l.id, l.name, l.state, l.fips, l.geo_json as "geoJson", l.centroid,
               count(devices.id)::int as total_devices,
               (count(devices.id) filter (where devices.is_online))::int as online_devices,
               (count(devices.id) filter (where devices.id is not null and not devices.is_online))::int as offline_devices,
               (count(devices.id) filter (where devices.is_warning))::int as warning_devices
        from locations l
        left join device_groups g on g.location_id = l.id
        left join devices on devices.group_id = g.id and ${inScope(scope)}
        group by l.id
        having ${withoutDevices ? sql`true` : sql`count(devices.id) > 0`}
        order by l.name`)) as unknown as Rows<CountyRow>;
      return res.rows;
    },

    async keptCounties(kept, withoutDevices) {
      const res = (await db.execute(sql`
        select l.id, l.name, l.state, l.fips, l.geo_json as "geoJson", l.centroid,
               coalesce(sum(c.total), 0)::int as total_devices,
               coalesce(sum(c.online), 0)::int as online_devices,
               coalesce(sum(c.total - c.online), 0)::int as offline_devices,
               coalesce(sum(c.warning), 0)::int as warning_devices
        from locations l
        left join device_counts c on c.location_id = l.id and ${keptBrandIn(kept, 'c.brand_id')}
        group by l.id
        having ${withoutDevices ? sql`true` : sql`coalesce(sum(c.total), 0) > 0`}
        order by l.name`)) as unknown as Rows<CountyRow>;
      return res.rows;
    },

    async siteInScope(scope, id) {
      const res = (await db.execute(sql`
        select g.lat, g.lng from device_groups g
        where g.id = ${id} and exists (select 1 from devices where devices.group_id = g.id and ${inScope(scope)})`)) as unknown as Rows<{
        lat: number;
        lng: number;
      }>;
      return res.rows[0];
    },

    async setTimezone(scope, id, timezoneId) {
      const res = (await db.execute(sql`
        update device_groups g set timezone_id = ${timezoneId}
        where g.id = ${id} and exists (select 1 from devices where devices.group_id = g.id and ${inScope(scope)})
        returning g.id, g.timezone_id`)) as unknown as Rows<{ id: number; timezone_id: string }>;
      return res.rows[0];
    },
  };
}
