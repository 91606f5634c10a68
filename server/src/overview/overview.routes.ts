import { Router } from 'express';
import { sql } from 'drizzle-orm';
import { LOW_BATTERY_PERCENT, mlToFlOz, overviewQuerySchema, roundVolume } from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { viewerOf } from '../auth/auth.middleware.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';

/** ml dispensed to fl.oz., 2 decimals. */
const flOz2 = (ml: number) => roundVolume(mlToFlOz(ml), 2);

/**
 * GET /api/v1/overview: every count of spec section 3 for the caller's scope, overall or for one county.
 * Usage totals come from the per-device running totals kept on ingest, not from a year of events.
 */
export function overviewService(db: Db) {
  return {
    async overview(viewer: ScopeViewer, location?: number) {
      const scope = deviceScope(viewer) ?? sql`true`;
      const county = location ? sql`g.location_id = ${location}` : sql`true`;
      const res = (await db.execute(sql`
        with d as (
          -- only the columns counted: the rows also hold each device's list JSON
          select devices.id, devices.brand_id, devices.batch_id, devices.batch2_id, devices.is_online, devices.is_warning,
                 devices.is_pause, devices.is_maintenance, devices.battery_percent, devices.is_registration,
                 devices.left_pump_type, devices.right_pump_type, devices.dispensed_ml1, devices.dispensed_ml2,
                 devices.dispense_count1, devices.dispense_count2
          from devices join device_groups g on g.id = devices.group_id
          where ${scope} and ${county}
        )
        select
          count(*)::int as total_devices,
          (count(*) filter (where is_online))::int as online_devices,
          (count(*) filter (where not is_online))::int as offline_devices,
          (count(*) filter (where is_warning))::int as warning_devices,
          (count(*) filter (where is_pause))::int as pause_devices,
          (count(*) filter (where is_maintenance))::int as maintenance_devices,
          (count(*) filter (where battery_percent < ${LOW_BATTERY_PERCENT}))::int as low_battery_devices,
          (count(*) filter (where is_registration))::int as "totalIsRegistration",
          coalesce(sum(case when left_pump_type = 'Sunscreen' then dispensed_ml1 else 0 end + case when right_pump_type = 'Sunscreen' then dispensed_ml2 else 0 end), 0)::float8 as sunscreen_ml,
          coalesce(sum(case when left_pump_type = 'Sanitizer' then dispensed_ml1 else 0 end + case when right_pump_type = 'Sanitizer' then dispensed_ml2 else 0 end), 0)::float8 as sanitizer_ml,
          coalesce(sum(case when left_pump_type = 'Sunscreen' then dispense_count1 else 0 end + case when right_pump_type = 'Sunscreen' then dispense_count2 else 0 end), 0)::float8 as sunscreen_count,
          coalesce(sum(case when left_pump_type = 'Sanitizer' then dispense_count1 else 0 end + case when right_pump_type = 'Sanitizer' then dispense_count2 else 0 end), 0)::float8 as sanitizer_count,
          (select count(distinct b.id) from batches b where b.id in (select batch_id from d union select batch2_id from d) and b.batch_type = 1)::int as sunscreen_batches_in_scope,
          (select count(distinct b.id) from batches b where b.id in (select batch_id from d union select batch2_id from d) and b.batch_type = 2)::int as sanitizer_batches_in_scope,
          (select count(*) from batches b where b.batch_type = 1)::int as sunscreen_batches_all,
          (select count(*) from batches b where b.batch_type = 2)::int as sanitizer_batches_all,
          (select count(distinct brand_id) from d)::int as brands_in_scope,
          (select count(*) from brands)::int as brands_all,
          (select count(distinct lower(u.company)) from users u join user_exclusive_devices x on x.user_id = u.id
             where u.user_type = 'market-partner' and x.device_id in (select id from d))::int as market_partners
        from d`)) as unknown as { rows: Record<string, number>[] };
      const r = res.rows[0]!;
      // A distributor counts every batch and brand it manages, used or not; others count what feeds their devices.
      const all = viewer.access === 'distributor' && !location;
      return {
        location: location ?? null,
        total_devices: r.total_devices,
        online_devices: r.online_devices,
        offline_devices: r.offline_devices,
        warning_devices: r.warning_devices,
        pause_devices: r.pause_devices,
        maintenance_devices: r.maintenance_devices,
        low_battery_devices: r.low_battery_devices,
        totalIsRegistration: r.totalIsRegistration,
        totalSunscreenUsed: flOz2(r.sunscreen_ml!),
        totalSanitizerUsed: flOz2(r.sanitizer_ml!),
        totalSunscreenDispensingCount: r.sunscreen_count,
        totalSanitizerDispensingCount: r.sanitizer_count,
        totalSunscreenBatchs: all ? r.sunscreen_batches_all : r.sunscreen_batches_in_scope,
        totalSanitizerBatchs: all ? r.sanitizer_batches_all : r.sanitizer_batches_in_scope,
        total_brands: all ? r.brands_all : r.brands_in_scope,
        total_market_partners: r.market_partners,
      };
    },
  };
}

export function overviewRoutes(ctx: AppContext): Routes {
  const service = overviewService(ctx.db);
  const router = Router();
  router.get('/overview', async (req, res) => void res.json(await service.overview(viewerOf(req), parse(overviewQuerySchema, req.query).location)));
  const docs: RouteDoc[] = [
    { method: 'get', path: '/api/v1/overview', tag: 'Overview', summary: 'Fleet counts and usage totals (fl.oz.) in the caller scope, overall or for one county', query: overviewQuerySchema },
  ];
  return { router, docs };
}
