import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { BrandAnswer } from '@fleet/shared';
import { clientBrandIds, deviceScope, type ScopeViewer } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { brandClients, brands, devices, users } from '../db/schema.ts';
import { isUniqueViolation } from '../lib/errors.ts';

export type BrandRow = { id: number; name: string; imageUrl: string | null };

/**
 * Which brands a caller sees, as a condition on `brands` (the brand side of the rule in deviceScope):
 * a client the brands assigned to it, a market partner the brands of devices in its scope.
 */
function brandScope(viewer: ScopeViewer): SQL | undefined {
  switch (viewer.access) {
    case 'distributor':
      return undefined;
    case 'client':
      return inArray(brands.id, clientBrandIds(viewer.id));
    case 'market-partner':
      return sql`exists (select 1 from ${devices} where ${devices.brandId} = ${brands.id} and ${deviceScope(viewer)})`;
  }
}

/**
 * Which assigned clients a caller is shown: a distributor every one; a client only itself (other
 * companies sharing the brand are not its business); a market partner none.
 */
function clientScope(viewer: ScopeViewer): SQL {
  switch (viewer.access) {
    case 'distributor':
      return sql`true`;
    case 'client':
      return sql`u.id = ${viewer.id}`;
    case 'market-partner':
      return sql`false`;
  }
}

/**
 * The listed brand's id, spelled out: drizzle leaves columns unqualified in a one-table select, and
 * inside a subquery a bare "id" would mean the inner table's.
 */
const outerBrandId = sql.raw('"brands"."id"');

/** The queries, usable on the database or inside a transaction. */
function brandQueries(db: Db) {
  return {
    /** Brands in the caller's scope with their clients and placed devices, in one query. */
    async list(viewer: ScopeViewer, onlyId?: number): Promise<BrandAnswer[]> {
      const scope = deviceScope(viewer);
      const rows = await db
        .select({
          id: brands.id,
          name: brands.name,
          imageUrl: brands.imageUrl,
          clients: sql<BrandAnswer['clients']>`coalesce((
            select json_agg(json_build_object('id', u.id, 'email', u.email, 'name', u.username, 'company', u.company) order by u.email)
            from brand_clients bc join users u on u.id = bc.user_id
            where bc.brand_id = ${outerBrandId} and ${clientScope(viewer)}), '[]'::json)`,
          serials: sql<string[]>`coalesce((
            select json_agg(d.serial order by d.serial) from devices d
            where d.brand_id = ${outerBrandId} and d.group_id is not null
              and d.id in (select ${devices.id} from ${devices} where ${scope ?? sql`true`})), '[]'::json)`,
        })
        .from(brands)
        .where(and(brandScope(viewer), onlyId === undefined ? undefined : eq(brands.id, onlyId)))
        .orderBy(asc(sql`lower(${brands.name})`), asc(brands.id));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        image: r.imageUrl,
        image_url: r.imageUrl,
        clients: r.clients ?? [],
        deviceSerials: r.serials ?? [],
        device_count: r.serials?.length ?? 0,
      }));
    },

    /** Brands by id; with `lock`, row-locked until the transaction ends, always in id order (no deadlock). */
    async findBrands(ids: number[], opts: { lock?: boolean } = {}): Promise<BrandRow[]> {
      if (!ids.length) return [];
      const q = db
        .select({ id: brands.id, name: brands.name, imageUrl: brands.imageUrl })
        .from(brands)
        .where(inArray(brands.id, ids))
        .orderBy(asc(brands.id));
      return opts.lock ? q.for('update') : q;
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      const [row] = await db
        .select({ id: brands.id })
        .from(brands)
        .where(and(sql`lower(${brands.name}) = lower(${name})`, exceptId === undefined ? undefined : ne(brands.id, exceptId)))
        .limit(1);
      return !!row;
    },

    /** The new id, or undefined when the name is taken (a concurrent add of the same name included). */
    async insertBrand(values: { name: string; imageUrl: string }): Promise<number | undefined> {
      const [row] = await db.insert(brands).values(values).onConflictDoNothing().returning({ id: brands.id });
      return row?.id;
    },

    async updateBrand(id: number, values: { name?: string; imageUrl?: string }): Promise<'updated' | 'missing' | 'taken'> {
      try {
        const rows = await db.update(brands).set(values).where(eq(brands.id, id)).returning({ id: brands.id });
        return rows.length ? 'updated' : 'missing';
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    async deleteBrand(id: number): Promise<boolean> {
      const rows = await db.delete(brands).where(eq(brands.id, id)).returning({ id: brands.id });
      return rows.length > 0;
    },

    /** Users a brand may be assigned to: activated clients, never a market partner. */
    async findAssignableClients(emails: string[]): Promise<{ id: number; email: string }[]> {
      if (!emails.length) return [];
      return db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          and(
            inArray(users.email, emails),
            eq(users.activated, true),
            eq(users.role, 'client'),
            ne(users.userType, 'market-partner'),
          ),
        );
    },

    async replaceClients(brandId: number, userIds: number[]): Promise<void> {
      await db.delete(brandClients).where(eq(brandClients.brandId, brandId));
      if (userIds.length) await db.insert(brandClients).values(userIds.map((userId) => ({ brandId, userId })));
    },

    async findDevices(serials: string[]): Promise<{ id: number; serial: string }[]> {
      if (!serials.length) return [];
      return db.select({ id: devices.id, serial: devices.serial }).from(devices).where(inArray(devices.serial, serials));
    },

    async setDevicesBrand(deviceIds: number[], brandId: number): Promise<number> {
      if (!deviceIds.length) return 0;
      const rows = await db.update(devices).set({ brandId }).where(inArray(devices.id, deviceIds)).returning({ id: devices.id });
      return rows.length;
    },

    /** Moves every device of one brand to another (or to none); answers the serials moved. */
    async moveDevices(fromBrandId: number, toBrandId: number | null): Promise<string[]> {
      const rows = await db
        .update(devices)
        .set({ brandId: toBrandId })
        .where(eq(devices.brandId, fromBrandId))
        .returning({ serial: devices.serial });
      return rows.map((r) => r.serial);
    },
  };
}
export type BrandQueries = ReturnType<typeof brandQueries>;

export function brandsRepository(db: Db) {
  return {
    ...brandQueries(db),
    /** Runs `fn` in one transaction: a thrown error rolls every write back. */
    transaction<T>(fn: (tx: BrandQueries) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => fn(brandQueries(tx)));
    },
  };
}
export type BrandsRepository = ReturnType<typeof brandsRepository>;
