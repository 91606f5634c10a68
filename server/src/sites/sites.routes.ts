import { Router } from 'express';
import { sql } from 'drizzle-orm';
import { timezoneUpdateSchema } from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { viewerOf } from '../auth/auth.middleware.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';

type Rows<T> = { rows: T[] };

/**
 * Sites (device groups) and counties, scoped to what the caller may see: a site is listed when it holds
 * a device in scope, and its counts cover only those devices. One aggregate query each, so the lists stay
 * fast with thousands of sites.
 */
export function sitesService(db: Db) {
  const scope = (v: ScopeViewer) => deviceScope(v) ?? sql`true`;
  return {
    async deviceGroups(viewer: ScopeViewer) {
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
        where ${scope(viewer)}
        group by g.id
        order by g.id`)) as unknown as Rows<Record<string, unknown> & { brand_ids: number[]; batch_ids: number[] }>;
      const names = new Map(((await db.execute(sql`select id, name from brands`)) as unknown as Rows<{ id: number; name: string }>).rows.map((b) => [b.id, b.name]));
      return res.rows.map(({ brand_ids, batch_ids, ...g }) => ({
        ...g,
        brand_list: brand_ids.map((id) => ({ id, name: names.get(id) ?? '' })),
        batchIds: [...new Set(batch_ids)].sort((a, b) => a - b),
      }));
    },

    /** Counties holding sites in scope (every county for a distributor), with device counts for the COUNTY cards. */
    async locations(viewer: ScopeViewer) {
      const res = (await db.execute(sql`
        select l.id, l.name, l.state, l.fips, l.geo_json as "geoJson", l.centroid,
               count(devices.id)::int as total_devices,
               (count(devices.id) filter (where devices.is_online))::int as online_devices,
               (count(devices.id) filter (where devices.id is not null and not devices.is_online))::int as offline_devices,
               (count(devices.id) filter (where devices.is_warning))::int as warning_devices
        from locations l
        left join device_groups g on g.location_id = l.id
        left join devices on devices.group_id = g.id and ${scope(viewer)}
        group by l.id
        having ${viewer.access === 'distributor' ? sql`true` : sql`count(devices.id) > 0`}
        order by l.name`)) as unknown as Rows<Record<string, unknown>>;
      return res.rows;
    },

    /** POST /api/v1/update_timezone_device_location_group: the panel stores back the zone it derived. */
    async updateTimezone(viewer: ScopeViewer, input: { id: number; timezone_id: string }) {
      const res = (await db.execute(sql`
        update device_groups g set timezone_id = ${input.timezone_id}
        where g.id = ${input.id} and exists (select 1 from devices where devices.group_id = g.id and ${scope(viewer)})
        returning g.id, g.timezone_id`)) as unknown as Rows<{ id: number; timezone_id: string }>;
      if (!res.rows[0]) throw ApiError.notFound('No site with this id.');
      return res.rows[0];
    },
  };
}

export function sitesRoutes(ctx: AppContext): Routes {
  const service = sitesService(ctx.db);
  const router = Router();
  router.get('/deviceGroup', async (req, res) => void res.json(await service.deviceGroups(viewerOf(req))));
  router.get('/location', async (req, res) => void res.json(await service.locations(viewerOf(req))));
  router.post('/update_timezone_device_location_group', async (req, res) =>
    void res.json(await service.updateTimezone(viewerOf(req), parse(timezoneUpdateSchema, req.body))),
  );
  const tag = 'Sites and counties';
  const docs: RouteDoc[] = [
    { method: 'get', path: '/api/v1/deviceGroup', tag, summary: 'Sites in scope with their devices, brands, batches and online/offline/warning/total counts' },
    { method: 'get', path: '/api/v1/location', tag, summary: 'Counties with their GeoJSON outline (first feature property name_2) and centroid POINT(lng lat)' },
    { method: 'post', path: '/api/v1/update_timezone_device_location_group', tag, summary: "Store a site's IANA time zone", body: timezoneUpdateSchema, responses: { 200: { description: 'Saved' }, 404: { description: 'Unknown site or outside the caller scope' } } },
  ];
  return { router, docs };
}
