import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { LOW_BATTERY_PERCENT } from '@fleet/shared';
import { keptBrandIn, type KeptScope } from '../sites/index.ts';

/** The raw counts of one overview: in the scope asked, and over the whole fleet (a distributor's overall view). */
export type OverviewCounts = {
  total_devices: number;
  online_devices: number;
  offline_devices: number;
  warning_devices: number;
  pause_devices: number;
  maintenance_devices: number;
  low_battery_devices: number;
  totalIsRegistration: number;
  sunscreen_ml: number;
  sanitizer_ml: number;
  sunscreen_count: number;
  sanitizer_count: number;
  sunscreen_batches_in_scope: number;
  sanitizer_batches_in_scope: number;
  sunscreen_batches_all: number;
  sanitizer_batches_all: number;
  brands_in_scope: number;
  brands_all: number;
  market_partners: number;
};

/** What the overview service needs from storage; a fake of it tests the service without a database. */
export interface OverviewRepository {
  /** Counts over the devices of `scope` (undefined: the whole fleet), in one county when `location` is given. */
  counts(scope: SQL | undefined, location: number | undefined): Promise<OverviewCounts>;
  /**
   * The same counts read from the kept aggregates (site_counts, site_members: migration 0025), for a scope of
   * brands: a sum over a few rows per site, not a scan of the devices.
   */
  keptCounts(kept: KeptScope, location: number | undefined): Promise<OverviewCounts>;
}

/**
 * One aggregate query. Usage totals come from the per-device running totals kept on ingest, not from a
 * year of events.
 */
export function overviewRepository(db: Db): OverviewRepository {
  return {
    async keptCounts(kept, location) {
      const county = (table: string) =>
        location
          ? sql`${sql.raw(table)}.group_id in (select g.id from device_groups g where g.location_id = ${location})`
          : sql`true`;
      // The sites' own rows (brand -1) for the fleet, its brands' rows for a client: batches and partners in scope.
      const members = kept.fleet ? sql`site_members.brand_id = -1` : keptBrandIn(kept, 'site_members.brand_id');
      const res = (await db.execute(sql`
        with s as (
          select * from site_counts where total > 0 and ${keptBrandIn(kept, 'site_counts.brand_id')} and ${county('site_counts')}
        ),
        m as (select batch_ids, partner_ids from site_members where ${members} and ${county('site_members')})
        select
          coalesce(sum(total), 0)::int as total_devices,
          coalesce(sum(online), 0)::int as online_devices,
          coalesce(sum(total - online), 0)::int as offline_devices,
          coalesce(sum(warning), 0)::int as warning_devices,
          coalesce(sum(pause), 0)::int as pause_devices,
          coalesce(sum(maintenance), 0)::int as maintenance_devices,
          coalesce(sum(low_battery), 0)::int as low_battery_devices,
          coalesce(sum(synced), 0)::int as "totalIsRegistration",
          coalesce(sum(sunscreen_ml), 0)::float8 as sunscreen_ml,
          coalesce(sum(sanitizer_ml), 0)::float8 as sanitizer_ml,
          coalesce(sum(sunscreen_count), 0)::float8 as sunscreen_count,
          coalesce(sum(sanitizer_count), 0)::float8 as sanitizer_count,
          (select count(*) from batches b where b.id in (select unnest(batch_ids) from m) and b.batch_type = 1)::int as sunscreen_batches_in_scope,
          (select count(*) from batches b where b.id in (select unnest(batch_ids) from m) and b.batch_type = 2)::int as sanitizer_batches_in_scope,
          (select count(*) from batches b where b.batch_type = 1)::int as sunscreen_batches_all,
          (select count(*) from batches b where b.batch_type = 2)::int as sanitizer_batches_all,
          (select count(distinct brand_id) from s where brand_id <> 0)::int as brands_in_scope,
          (select count(*) from brands)::int as brands_all,
          (select count(distinct lower(u.company)) from users u
             where u.user_type = 'market-partner' and u.id in (select unnest(partner_ids) from m))::int as market_partners
        from s`)) as unknown as { rows: OverviewCounts[] };
      return res.rows[0]!;
    },

    async counts(scope, location) {
      const inScope = scope ?? sql`true`;
      const county = location ? sql`g.location_id = ${location}` : sql`true`;
      const res = (await db.execute(sql`
        with d as (
          -- only the columns counted: the rows also hold each device's list JSON
          select devices.id, devices.brand_id, devices.batch_id, devices.batch2_id, devices.is_online, devices.is_warning,
                 devices.is_pause, devices.is_maintenance, devices.battery_percent, devices.is_registration,
                 devices.left_pump_type, devices.right_pump_type, devices.dispensed_ml1, devices.dispensed_ml2,
                 devices.dispense_count1, devices.dispense_count2
          from devices join device_groups g on g.id = devices.group_id
          where ${inScope} and ${county}
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
        from d`)) as unknown as { rows: OverviewCounts[] };
      return res.rows[0]!;
    },
  };
}
