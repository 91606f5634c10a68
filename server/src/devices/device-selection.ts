import { sql, type SQL } from 'drizzle-orm';
import type { DeviceFilter, DeviceSelection } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { pageFilters } from './devices.repository.ts';
import { pageFilterOf } from './page-filter.ts';

/**
 * Selections resolved on the server (issue 46; shared/src/schemas/device-selection.schema.ts): a selection
 * becomes one boolean condition on `devices`, read in one query with the caller's scope (deviceScope) and
 * "placed" beside it, so a selection can never reach outside the scope whatever the browser sends.
 */

/** A filter as a condition on `devices`: devicePage's where-clause (pageFilters), the same fields. */
export function filterCondition(f: DeviceFilter): SQL {
  return pageFilters(undefined, pageFilterOf(f, { limit: 0 }));
}

/** The serials as one jsonb parameter (10,000 serials are one bound value, not 10,000 of them). */
const inSerials = (serials: readonly string[]): SQL =>
  serials.length ? sql`devices.serial in (select jsonb_array_elements_text(${JSON.stringify(serials)}::jsonb))` : sql`false`;

/**
 * The selection as one condition, built in its order: (filter or serials) and not except, then each step
 * (select: or the filter; deselect: and not the filter; add: or the serials; remove: and not the serials).
 */
export function selectionCondition(selection: DeviceSelection): SQL {
  let cond: SQL = selection.filter ? sql`(${filterCondition(selection.filter)})` : sql`false`;
  if (selection.serials?.length) cond = sql`(${cond} or ${inSerials(selection.serials)})`;
  if (selection.except?.length) cond = sql`(${cond} and not ${inSerials(selection.except)})`;
  for (const step of selection.steps ?? []) {
    switch (step.op) {
      case 'select':
        cond = sql`(${cond} or (${filterCondition(step.filter)}))`;
        break;
      case 'deselect':
        cond = sql`(${cond} and not (${filterCondition(step.filter)}))`;
        break;
      case 'add':
        cond = sql`(${cond} or ${inSerials(step.serials)})`;
        break;
      case 'remove':
        cond = sql`(${cond} and not ${inSerials(step.serials)})`;
        break;
    }
  }
  return cond;
}

/** The serials a selection names to add (its `serials` and its add steps): a write checks each exists. */
export function namedSerials(selection: DeviceSelection): string[] {
  const named = new Set(selection.serials ?? []);
  for (const step of selection.steps ?? []) if (step.op === 'add') for (const serial of step.serials) named.add(serial);
  return [...named];
}

/** The SQL of selections; on the database or inside a transaction. */
function selectionQueries(db: Db) {
  const placed = (scope: SQL | undefined) => sql`devices.group_id is not null and ${scope ?? sql`true`}`;
  return {
    async count(scope: SQL | undefined, selection: DeviceSelection): Promise<number> {
      const res = (await db.execute(
        sql`select count(*)::int as n from devices where ${placed(scope)} and ${selectionCondition(selection)}`,
      )) as unknown as { rows: { n: number }[] };
      return res.rows[0]!.n;
    },

    /**
     * The devices of the selection grouped by brand and county (their site's), `n` in each: what the shared
     * listCounts rule counts (the Report List's counts), a few rows whatever the number of devices.
     */
    async places(
      scope: SQL | undefined,
      selection: DeviceSelection,
    ): Promise<{ brand: number | null; county: number | null; n: number }[]> {
      const res = (await db.execute(sql`
        select devices.brand_id as brand, g.location_id as county, count(*)::int as n
        from devices left join device_groups g on g.id = devices.group_id
        where ${placed(scope)} and ${selectionCondition(selection)}
        group by devices.brand_id, g.location_id`)) as unknown as {
        rows: { brand: number | null; county: number | null; n: number }[];
      };
      return res.rows;
    },

    /** The first `limit` serials of the selection, by serial. */
    async serials(scope: SQL | undefined, selection: DeviceSelection, limit: number): Promise<string[]> {
      if (limit <= 0) return [];
      const res = (await db.execute(sql`
        select devices.serial from devices where ${placed(scope)} and ${selectionCondition(selection)}
        order by devices.serial limit ${limit}`)) as unknown as { rows: { serial: string }[] };
      return res.rows.map((r) => r.serial);
    },

    /** Of these serials, those that are not placed devices in scope. */
    async missing(scope: SQL | undefined, serials: string[]): Promise<string[]> {
      if (!serials.length) return [];
      const res = (await db.execute(sql`
        select s.serial from jsonb_array_elements_text(${JSON.stringify(serials)}::jsonb) as s(serial)
        where not exists (select 1 from devices where devices.serial = s.serial and ${placed(scope)})`)) as unknown as {
        rows: { serial: string }[];
      };
      return res.rows.map((r) => r.serial);
    },

    /** The brand row, locked until the transaction ends (two transfers to one brand apply one after the other). */
    async lockBrand(brandId: number): Promise<boolean> {
      const res = (await db.execute(sql`select id from brands where id = ${brandId} for update`)) as unknown as {
        rows: unknown[];
      };
      return res.rows.length > 0;
    },

    /**
     * Every device of the selection (in scope, placed) gets the brand, in one statement; answers the serials
     * that changed (a device already of the brand is left alone: no trigger runs for it).
     */
    async setBrand(scope: SQL | undefined, selection: DeviceSelection, brandId: number): Promise<string[]> {
      const res = (await db.execute(sql`
        update devices set brand_id = ${brandId}
        where ${placed(scope)} and ${selectionCondition(selection)} and devices.brand_id is distinct from ${brandId}
        returning devices.serial`)) as unknown as { rows: { serial: string }[] };
      return res.rows.map((r) => r.serial);
    },
  };
}
type SelectionQueries = ReturnType<typeof selectionQueries>;

export function selectionRepository(db: Db) {
  return {
    ...selectionQueries(db),
    /** Runs `fn` in one transaction: a thrown error rolls every write back. */
    transaction<T>(fn: (tx: SelectionQueries) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(selectionQueries(tx as unknown as Db)));
    },
  };
}
export type SelectionRepository = ReturnType<typeof selectionRepository>;
