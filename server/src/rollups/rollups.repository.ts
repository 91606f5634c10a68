import { sql, type SQL } from 'drizzle-orm';
import type { RollupGroup, RollupRow } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { companyKeyOf, fedByBatch } from '../db/schema.ts';

/** The filters of a roll-up, after the route has checked them. `partner` is lower-cased and trimmed. */
export type RollupFilter = {
  brand?: number | undefined;
  county?: number | undefined;
  partner?: string | undefined;
  batch?: string | undefined;
};

/**
 * The four counts of a card over the rows of a group. A device is one row of its county, site and batch
 * group (a batch number is one batch, and a device's second pump on the same batch is left out), so
 * count(*) counts devices; a company can hold a device through several of its users, so it counts distinct
 * devices (a sort, dearer).
 */
const countsOf = (distinct: boolean) => {
  const n = distinct ? sql`count(distinct devices.id)` : sql`count(*)`;
  return sql`${n}::int as total,
  (${n} filter (where devices.is_online))::int as online,
  (${n} filter (where not devices.is_online))::int as offline,
  (${n} filter (where devices.is_warning))::int as warning`;
};

/** Placed devices in scope that pass the filters, as a condition on `devices` joined to its site `g`. */
function filters(scope: SQL | undefined, f: RollupFilter): SQL {
  return sql.join(
    [
      sql`devices.group_id is not null`,
      scope ?? sql`true`,
      f.brand !== undefined ? sql`devices.brand_id = ${f.brand}` : sql`true`,
      f.county !== undefined ? sql`g.location_id = ${f.county}` : sql`true`,
      f.partner !== undefined
        ? sql`exists (select 1 from user_exclusive_devices x join users u on u.id = x.user_id
                      where x.device_id = devices.id and ${companyKeyOf(sql`u.company`)} = ${f.partner})`
        : sql`true`,
      f.batch !== undefined ? fedByBatch(f.batch) : sql`true`,
    ],
    sql` and `,
  );
}

/** Each group's key, name, site fields, join and grouping. */
const GROUPS: Record<RollupGroup, { select: SQL; join: SQL; where: SQL; group: SQL }> = {
  county: {
    select: sql`g.location_id::text as key, coalesce(l.name, '') as name, null as address, null as serial, null as label`,
    join: sql`left join locations l on l.id = g.location_id`,
    where: sql`g.location_id is not null`,
    group: sql`g.location_id, l.name`,
  },
  site: {
    // The site's first device (by number, a device without one first, then serial) names and opens its card.
    select: sql`g.id::text as key, g.name as name,
      (array_agg(devices.address order by coalesce(devices.number, 0), devices.serial))[1] as address,
      (array_agg(devices.serial order by coalesce(devices.number, 0), devices.serial))[1] as serial,
      (array_agg(devices.label order by coalesce(devices.number, 0), devices.serial))[1] as label`,
    join: sql``,
    where: sql`true`,
    group: sql`g.id, g.name`,
  },
  partner: {
    select: sql`${companyKeyOf(sql`u.company`)} as key, min(trim(u.company)) as name, null as address, null as serial, null as label`,
    join: sql`join user_exclusive_devices xp on xp.device_id = devices.id join users u on u.id = xp.user_id`,
    where: sql`trim(coalesce(u.company, '')) <> ''`,
    group: sql`${companyKeyOf(sql`u.company`)}`,
  },
  batch: {
    select: sql`bn.batch_no as key, bn.batch_no as name, null as address, null as serial, null as label`,
    // Each device's two pumps as two rows joined on equality (a hash join; `bn.id in (a, b)` was a nested loop).
    join: sql`cross join lateral (values (devices.batch_id), (nullif(devices.batch2_id, devices.batch_id))) pump(batch_id)
      join batches bn on bn.id = pump.batch_id`,
    where: sql`bn.batch_no is not null and bn.batch_no <> ''`,
    group: sql`bn.batch_no`,
  },
};

export interface RollupsRepository {
  /** The roll-up counted over the devices (scope: deviceScope's condition on `devices`, undefined for the fleet). */
  counted(by: RollupGroup, scope: SQL | undefined, filter: RollupFilter): Promise<RollupRow[]>;
  /**
   * Counties from the kept counts (device_counts, a sum over a few rows per county): `brands` is
   * brandCountsScope's condition. Only for the filters those rows hold (brand, county).
   */
  keptCounties(brands: SQL, filter: Pick<RollupFilter, 'brand' | 'county'>): Promise<RollupRow[]>;
}

export function rollupsRepository(db: Db): RollupsRepository {
  const rows = async (query: SQL) => ((await db.execute(query)) as unknown as { rows: RollupRow[] }).rows;
  return {
    counted(by, scope, f) {
      const g = GROUPS[by];
      return rows(sql`
        select ${g.select}, ${countsOf(by === 'partner')}
        from devices join device_groups g on g.id = devices.group_id ${g.join}
        where ${filters(scope, f)} and ${g.where}
        group by ${g.group}`);
    },
    keptCounties(brands, f) {
      return rows(sql`
        select device_counts.location_id::text as key, coalesce(l.name, '') as name,
               null as address, null as serial, null as label,
               sum(device_counts.total)::int as total, sum(device_counts.online)::int as online,
               sum(device_counts.total - device_counts.online)::int as offline, sum(device_counts.warning)::int as warning
        from device_counts left join locations l on l.id = device_counts.location_id
        where ${brands} and device_counts.location_id <> 0
          and ${f.brand !== undefined ? sql`device_counts.brand_id = ${f.brand}` : sql`true`}
          and ${f.county !== undefined ? sql`device_counts.location_id = ${f.county}` : sql`true`}
        group by device_counts.location_id, l.name
        having sum(device_counts.total) > 0`);
    },
  };
}
