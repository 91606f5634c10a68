import { and, asc, eq, getTableColumns, gte, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { batches, batchNumberKeyOf, brandClients, brands, devices, fedByBatch, users } from '../db/schema.ts';
import { recomputeWarnings, requestChange } from '../devices/index.ts';

export type BatchRow = typeof batches.$inferSelect;

/** A batch with what its answer needs from the devices it feeds (within a device scope). */
export type BatchUsageRow = { batch: BatchRow; deviceCount: number; brands: { id: number; name: string }[] };

export type FedDeviceRow = {
  id: number;
  serial: string;
  label: string;
  address: string;
  brandId: number | null;
  brandName: string | null;
  batchId: number | null;
  batch2Id: number | null;
  isPause: boolean;
  nextWakeupTime: Date | null;
};

export type BrandClientRow = { userId: number; email: string; username: string; company: string; brandId: number };

export type BatchListFilter = {
  /** Condition on `devices` (deviceScope); undefined for the whole fleet. */
  scope: SQL | undefined;
  /** Only batches feeding at least one device of the scope (what a client or partner may see). */
  onlyFedInScope: boolean;
  id?: number;
  batchType?: number;
  /** Only batches a device form may offer: not expired on this day, not recalled. */
  choosableOn?: string;
};

/**
 * A batch's remaining litres as users must see it: the stored value less what check-ins appended to
 * batch_consumption since the last fold (schema.ts batchConsumption, migration 0015), never below 0.
 */
const remainNow =
  sql<number>`greatest(0, ${batches.remainLitres} - coalesce((select sum(c.litres) from batch_consumption c where c.batch_id = ${batches.id}), 0))`.mapWith(
    Number,
  );
/** Every column of a batch row, its remaining volume as of now. */
const batchNow = { ...getTableColumns(batches), remainLitres: remainNow };

/**
 * Moves the consumption check-ins appended into `batches.remain_litres`: of one batch, or of all (the
 * fleet-health tick). Answers how many appended rows it moved. Locks the batch rows it changes, in id order.
 */
export async function foldBatchConsumption(db: Db, batchId?: number): Promise<number> {
  const res = (await db.execute(sql`select batch_consumption_fold(${batchId ?? null}::int) as n`)) as unknown as {
    rows: { n: number }[];
  };
  return Number(res.rows[0]?.n ?? 0);
}

/** What the batch service needs from storage; a fake of it tests the service without a database. */
export interface BatchesRepository {
  transaction<T>(fn: (repo: BatchesRepository) => Promise<T>): Promise<T>;
  list(filter: BatchListFilter): Promise<BatchUsageRow[]>;
  byId(id: number, opts?: { lock?: boolean }): Promise<BatchRow | undefined>;
  numberTaken(batchNo: string, exceptId?: number): Promise<boolean>;
  lockBatchNumbers(): Promise<void>;
  insert(values: typeof batches.$inferInsert): Promise<BatchRow>;
  update(id: number, values: Partial<typeof batches.$inferInsert>): Promise<BatchRow | undefined>;
  remove(id: number): Promise<void>;
  markRecalled(id: number, at: Date): Promise<BatchRow | undefined>;
  clearRecall(id: number): Promise<BatchRow | undefined>;
  fedDevices(batchId: number): Promise<FedDeviceRow[]>;
  countFedDevices(batchId: number): Promise<number>;
  pauseDevices(list: Pick<FedDeviceRow, 'id' | 'nextWakeupTime'>[], requestedBy: number, at: Date): Promise<number[]>;
  clientsOfBrands(brandIds: number[]): Promise<BrandClientRow[]>;
  recomputeWarnings(deviceIds: number[], today: string): Promise<void>;
}

/** The SQL of the batch calls. Built on a database or on a transaction (see `transaction`). */
export function batchesRepository(db: Db): BatchesRepository {
  return {
    /** Runs `fn` in one transaction, with a repository bound to it: all or nothing. */
    transaction<T>(fn: (repo: BatchesRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(batchesRepository(tx as unknown as Db)));
    },

    async list(filter: BatchListFilter): Promise<BatchUsageRow[]> {
      const rows = await db
        .select({
          batch: batchNow,
          deviceCount: sql<number>`count(distinct ${devices.id})::int`,
          brands: sql<{ id: number; name: string }[]>`coalesce(
            jsonb_agg(distinct jsonb_build_object('id', ${brands.id}, 'name', ${brands.name})) filter (where ${brands.id} is not null),
            '[]'::jsonb)`,
        })
        .from(batches)
        // The scope sits in the join, not the WHERE: counts and brands then only ever describe devices
        // the caller may see, and a distributor still gets batches that feed nothing.
        .leftJoin(devices, and(or(eq(devices.batchId, batches.id), eq(devices.batch2Id, batches.id)), filter.scope))
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .where(
          and(
            filter.id != null ? eq(batches.id, filter.id) : undefined,
            filter.batchType != null ? eq(batches.batchType, filter.batchType) : undefined,
            filter.choosableOn != null
              ? and(gte(batches.expireDate, filter.choosableOn), eq(batches.isRecalled, false))
              : undefined,
          ),
        )
        .groupBy(batches.id)
        .having(filter.onlyFedInScope ? sql`count(${devices.id}) > 0` : undefined)
        .orderBy(asc(batches.batchNo));
      return rows.map((r) => ({ ...r, brands: r.brands ?? [] }));
    },

    /**
     * `lock` takes the row for the rest of the transaction: a device cannot be pointed at it meanwhile.
     * Locked (a write follows), the batch's appended consumption is folded into its row first, so what the
     * write reads and returns (`update`, `markRecalled`...) is the remaining volume as of now.
     */
    async byId(id: number, opts: { lock?: boolean } = {}): Promise<BatchRow | undefined> {
      if (opts.lock) {
        await foldBatchConsumption(db, id);
        const [row] = await db.select().from(batches).where(eq(batches.id, id)).for('update');
        return row;
      }
      const [row] = await db.select(batchNow).from(batches).where(eq(batches.id, id));
      return row;
    },

    /** People treat ' spf-1 ' and 'SPF-1' as the same lot (shared's batchNumberKey; the unique index agrees). */
    async numberTaken(batchNo: string, exceptId?: number): Promise<boolean> {
      const [row] = await db
        .select({ id: batches.id })
        .from(batches)
        .where(
          and(
            sql`${batchNumberKeyOf(batches.batchNo)} = ${batchNumberKeyOf(batchNo)}`,
            exceptId != null ? ne(batches.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return !!row;
    },

    /**
     * Serialises batch-number writes until the transaction ends, so of two concurrent adds of 'spf-1' and
     * 'SPF-1' the second sees the first and answers the field's message (the unique index would refuse it
     * too, but as a database error).
     */
    async lockBatchNumbers(): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('fleet:batches:batch_no'))`);
    },

    async insert(values: typeof batches.$inferInsert): Promise<BatchRow> {
      const [row] = await db.insert(batches).values(values).returning();
      return row!;
    },

    async update(id: number, values: Partial<typeof batches.$inferInsert>): Promise<BatchRow | undefined> {
      const [row] = await db.update(batches).set(values).where(eq(batches.id, id)).returning();
      return row;
    },

    async remove(id: number): Promise<void> {
      await db.delete(batches).where(eq(batches.id, id));
    },

    /** Marks the batch recalled unless it already is; undefined when it already was (or is gone). */
    async markRecalled(id: number, at: Date): Promise<BatchRow | undefined> {
      const [row] = await db
        .update(batches)
        .set({ isRecalled: true, recalledAt: at })
        .where(and(eq(batches.id, id), eq(batches.isRecalled, false)))
        .returning();
      return row;
    },

    async clearRecall(id: number): Promise<BatchRow | undefined> {
      const [row] = await db.update(batches).set({ isRecalled: false, recalledAt: null }).where(eq(batches.id, id)).returning();
      return row;
    },

    /** Every device a batch feeds, on either pump, whatever the caller's scope (writes are fleet-wide). */
    async fedDevices(batchId: number): Promise<FedDeviceRow[]> {
      return db
        .select({
          id: devices.id,
          serial: devices.serial,
          label: devices.label,
          address: devices.address,
          brandId: devices.brandId,
          brandName: brands.name,
          batchId: devices.batchId,
          batch2Id: devices.batch2Id,
          isPause: devices.isPause,
          nextWakeupTime: devices.nextWakeupTime,
        })
        .from(devices)
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .where(fedByBatch(batchId))
        .orderBy(asc(devices.serial));
    },

    async countFedDevices(batchId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(devices)
        .where(fedByBatch(batchId));
      return row?.n ?? 0;
    },

    /**
     * Pauses the devices that are not paused yet and records, per device, the pending change it picks
     * up at its next wake-up, through the same helper as setPauseDevice (a newer request replaces an
     * older pending pause/resume, so a device never receives two contradicting ones). Devices already
     * paused get no new request: nothing changes for them. Answers the ids it paused.
     */
    async pauseDevices(list: Pick<FedDeviceRow, 'id' | 'nextWakeupTime'>[], requestedBy: number, at: Date): Promise<number[]> {
      if (!list.length) return [];
      const paused = await db
        .update(devices)
        .set({ isPause: true })
        .where(
          and(
            inArray(
              devices.id,
              list.map((d) => d.id),
            ),
            eq(devices.isPause, false),
          ),
        )
        .returning({ id: devices.id });
      const wake = new Map(list.map((d) => [d.id, d.nextWakeupTime]));
      for (const { id } of paused) {
        await requestChange(db, {
          deviceId: id,
          kind: 'other',
          setting: 'pause',
          desired: { is_pause: true },
          previous: { devices: { isPause: false } },
          requestedBy,
          nextWakeup: wake.get(id) ?? null,
          now: at,
        });
      }
      return paused.map((p) => p.id);
    },

    /** Client companies assigned to any of these brands, one row per (client, brand). */
    async clientsOfBrands(brandIds: number[]): Promise<BrandClientRow[]> {
      if (!brandIds.length) return [];
      return db
        .select({
          userId: users.id,
          email: users.email,
          username: users.username,
          company: users.company,
          brandId: brandClients.brandId,
        })
        .from(brandClients)
        .innerJoin(users, eq(users.id, brandClients.userId))
        .where(inArray(brandClients.brandId, brandIds))
        .orderBy(asc(users.id), asc(brandClients.brandId));
    },

    recomputeWarnings(deviceIds: number[], today: string): Promise<void> {
      return recomputeWarnings(db, deviceIds, today);
    },
  };
}
