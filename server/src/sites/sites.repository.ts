import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

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

/** What the sites service needs from storage; a fake of it tests the service without a database. */
export interface SitesRepository {
  /** Sites holding a device of `scope` (undefined: every placed device), counted over those devices only. */
  sites(scope: SQL | undefined): Promise<SiteRow[]>;
  brandNames(): Promise<Map<number, string>>;
  /** Counties with the counts of the devices of `scope`; `withoutDevices` keeps counties with none. */
  counties(scope: SQL | undefined, withoutDevices: boolean): Promise<CountyRow[]>;
  /** A site's coordinates when it holds a device of `scope`; undefined otherwise. */
  siteInScope(scope: SQL | undefined, id: number): Promise<{ lat: number; lng: number } | undefined>;
  /** Stores a site's zone when the site holds a device of `scope`; undefined otherwise. */
  setTimezone(scope: SQL | undefined, id: number, timezoneId: string): Promise<{ id: number; timezone_id: string } | undefined>;
}

/** One aggregate query each, so the lists stay fast with thousands of sites. */
export function sitesRepository(db: Db): SitesRepository {
  const inScope = (scope: SQL | undefined) => scope ?? sql`true`;
  return {
    async sites(scope) {
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
        where ${inScope(scope)}
        group by g.id
        order by g.id`)) as unknown as Rows<SiteRow>;
      return res.rows;
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
