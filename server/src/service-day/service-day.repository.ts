import { and, asc, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { PlanBody } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { crews, deviceGroups, devices, servicePlanDevices, servicePlans, brands } from '../db/schema.ts';
import { maintenanceRepository, type SlotRow } from '../maintenance/index.ts';

export type CrewRow = typeof crews.$inferSelect;
export type CrewValues = Omit<typeof crews.$inferInsert, 'id' | 'ownerId' | 'createdAt'>;
export type PlanRow = typeof servicePlans.$inferSelect & { body: PlanBody };

type Batch = { batchNo: string; expireDate: string; isRecalled: boolean };

/** A placed device in scope, as the due rules read it. */
export type PlanDeviceRow = {
  id: number;
  serial: string;
  siteId: number;
  siteName: string;
  siteAddress: string;
  siteLat: number;
  siteLng: number;
  timezoneId: string | null;
  brandId: number | null;
  brandName: string | null;
  leftPumpType: string;
  rightPumpType: string;
  volumeRemain: number;
  volumeRemain2: number;
  reservoirMl: number;
  batch: Batch | null;
  batch2: Batch | null;
  warningLists: string[];
  isMaintenance: boolean;
  firstEventAt: Date | null;
};

export type StockRow = {
  batchNo: string;
  batchType: number;
  expireDate: string;
  remainLitres: number;
  isRecalled: boolean;
  brandIds: number[];
};

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const PUBLISHED = ['published', 'in_progress', 'done'];

export function serviceDayRepository(db: Db) {
  const repo = {
    // ------------------------------------------------------------ crews
    crews: (ownerId: number) => db.select().from(crews).where(eq(crews.ownerId, ownerId)).orderBy(asc(crews.name), asc(crews.id)),
    crewsByIds: (ownerId: number, ids: number[]) =>
      ids.length
        ? db
            .select()
            .from(crews)
            .where(and(eq(crews.ownerId, ownerId), inArray(crews.id, ids)))
            .orderBy(asc(crews.id))
        : Promise.resolve([] as CrewRow[]),
    async insertCrew(ownerId: number, values: CrewValues) {
      const [row] = await db
        .insert(crews)
        .values({ ...values, ownerId })
        .returning();
      return row!;
    },
    async updateCrew(ownerId: number, id: number, values: CrewValues) {
      const [row] = await db
        .update(crews)
        .set(values)
        .where(and(eq(crews.id, id), eq(crews.ownerId, ownerId)))
        .returning();
      return row;
    },
    async deleteCrew(ownerId: number, id: number) {
      const rows = await db
        .delete(crews)
        .where(and(eq(crews.id, id), eq(crews.ownerId, ownerId)))
        .returning({ id: crews.id });
      return rows.length > 0;
    },

    // ------------------------------------------------------------ what the plan reads
    async devices(scope: SQL | undefined): Promise<PlanDeviceRow[]> {
      const batchJson = (column: SQL) =>
        sql`(select json_build_object('batchNo', b.batch_no, 'expireDate', b.expire_date, 'isRecalled', b.is_recalled) from batches b where b.id = ${column})`;
      const rows = await db
        .select({
          id: devices.id,
          serial: devices.serial,
          siteId: deviceGroups.id,
          siteName: deviceGroups.name,
          siteAddress: deviceGroups.address,
          siteLat: deviceGroups.lat,
          siteLng: deviceGroups.lng,
          timezoneId: deviceGroups.timezoneId,
          brandId: devices.brandId,
          brandName: brands.name,
          leftPumpType: devices.leftPumpType,
          rightPumpType: devices.rightPumpType,
          volumeRemain: devices.volumeRemain,
          volumeRemain2: devices.volumeRemain2,
          reservoirMl: devices.reservoirMl,
          batch: sql<Batch | null>`${batchJson(sql`${devices.batchId}`)}`,
          batch2: sql<Batch | null>`${batchJson(sql`${devices.batch2Id}`)}`,
          warningLists: devices.warningLists,
          isMaintenance: devices.isMaintenance,
          firstEventAt: sql<string | null>`(select min(e.occurred_at) from pump_events e where e.device_id = ${devices.id})`,
        })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .where(and(scope, eq(devices.isActivated, true)));
      return rows.map((r) => ({ ...r, firstEventAt: r.firstEventAt ? new Date(r.firstEventAt) : null }));
    },

    slotTotals: (deviceIds: number[], since: Date, until: Date): Promise<SlotRow[]> =>
      maintenanceRepository(db).slotTotals(deviceIds, since, until),

    /** The lowest battery reading of each site-local day since `since`, per device. */
    async batteryDailyMinimums(deviceIds: number[], since: Date): Promise<{ deviceId: number; date: string; percent: number }[]> {
      if (!deviceIds.length) return [];
      return rowsOf<{ device_id: number; day: string; percent: number }>(
        await db.execute(sql`
          select r.device_id, to_char((r.recorded_at at time zone coalesce(g.timezone_id, 'UTC'))::date, 'YYYY-MM-DD') as day, min(r.battery_percent)::float8 as percent
          from battery_readings r
          join devices d on d.id = r.device_id
          left join device_groups g on g.id = d.group_id
          where r.device_id in (${sql.join(
            deviceIds.map((id) => sql`${id}`),
            sql`, `,
          )}) and r.recorded_at >= ${since.toISOString()}::timestamptz
          group by 1, 2`),
      ).map((r) => ({ deviceId: Number(r.device_id), date: r.day, percent: Number(r.percent) }));
    },

    /** Batches with fluid left (what check-ins took and was not folded yet subtracted), with the brands they feed. */
    async stock(): Promise<StockRow[]> {
      return rowsOf<{
        batch_no: string;
        batch_type: number;
        expire_date: string;
        remain: number;
        is_recalled: boolean;
        brand_ids: number[] | null;
      }>(
        await db.execute(sql`
          select b.batch_no, b.batch_type, to_char(b.expire_date, 'YYYY-MM-DD') as expire_date, b.is_recalled,
                 greatest(0, b.remain_litres - coalesce((select sum(c.litres) from batch_consumption c where c.batch_id = b.id), 0))::float8 as remain,
                 (select array_agg(distinct d.brand_id) from devices d where (d.batch_id = b.id or d.batch2_id = b.id) and d.brand_id is not null) as brand_ids
          from batches b`),
      ).map((r) => ({
        batchNo: r.batch_no,
        batchType: Number(r.batch_type),
        expireDate: r.expire_date,
        remainLitres: Number(r.remain),
        isRecalled: r.is_recalled,
        brandIds: (r.brand_ids ?? []).map(Number),
      }));
    },

    // ------------------------------------------------------------ plans
    /** Serialises the writes of one owner's plans for one date (versions, publishing) across processes. */
    async lockOwnerDate(ownerId: number, date: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('fleet:service-plans'), hashtext(${`${ownerId}:${date}`}))`);
    },
    async insertPlan(values: { ownerId: number; planDate: string; body: PlanBody; createdBy: number | null }) {
      const [row] = await db
        .insert(servicePlans)
        .values({
          ...values,
          version: sql`(select coalesce(max(version), 0) + 1 from service_plans where owner_id = ${values.ownerId} and plan_date = ${values.planDate})`,
        })
        .returning();
      return row as PlanRow;
    },
    async plans(ownerId: number, date: string) {
      return (await db
        .select()
        .from(servicePlans)
        .where(and(eq(servicePlans.ownerId, ownerId), eq(servicePlans.planDate, date)))
        .orderBy(desc(servicePlans.version))) as PlanRow[];
    },
    /** Every owner's published plans of a date (the field app on the maintenance credential). */
    async publishedPlans(date: string) {
      return (await db
        .select()
        .from(servicePlans)
        .where(and(eq(servicePlans.planDate, date), inArray(servicePlans.status, PUBLISHED)))
        .orderBy(asc(servicePlans.ownerId), desc(servicePlans.version))) as PlanRow[];
    },
    async plan(ownerId: number, id: number) {
      const [row] = await db
        .select()
        .from(servicePlans)
        .where(and(eq(servicePlans.id, id), eq(servicePlans.ownerId, ownerId)));
      return row as PlanRow | undefined;
    },
    async planForUpdate(ownerId: number, id: number) {
      const [row] = await db
        .select()
        .from(servicePlans)
        .where(and(eq(servicePlans.id, id), eq(servicePlans.ownerId, ownerId)))
        .for('update');
      return row as PlanRow | undefined;
    },
    /** The owner's published plan of the date, if any (published, in progress or done). */
    async publishedOf(ownerId: number, date: string) {
      const [row] = await db
        .select()
        .from(servicePlans)
        .where(and(eq(servicePlans.ownerId, ownerId), eq(servicePlans.planDate, date), inArray(servicePlans.status, PUBLISHED)));
      return row as PlanRow | undefined;
    },
    async setStatus(id: number, status: string, publishedAt?: Date) {
      await db
        .update(servicePlans)
        .set({ status, ...(publishedAt ? { publishedAt } : {}) })
        .where(eq(servicePlans.id, id));
    },
    /** Progress only ever moves a published plan on (never one a newer version superseded meanwhile). */
    async advanceStatus(id: number, status: string) {
      await db
        .update(servicePlans)
        .set({ status })
        .where(and(eq(servicePlans.id, id), inArray(servicePlans.status, ['published', 'in_progress'])));
    },
    async insertPlanDevices(rows: { planId: number; serial: string; crewId: number; stopOrder: number }[]) {
      if (rows.length) await db.insert(servicePlanDevices).values(rows).onConflictDoNothing();
    },
    /** Serials of the plan with a maintenance record since `since`. */
    async servicedSince(planId: number, since: Date): Promise<Set<string>> {
      const rows = rowsOf<{ serial: string }>(
        await db.execute(sql`
          select p.serial from service_plan_devices p
          join devices d on d.serial = p.serial
          where p.plan_id = ${planId}
            and exists (select 1 from maintenance_records r where r.device_id = d.id and r.performed_at >= ${since.toISOString()}::timestamptz)`),
      );
      return new Set(rows.map((r) => r.serial));
    },
    /** Published plans (not done) visiting a device: a maintenance record may move their progress. */
    async openPlansWithDevice(serial: string) {
      return db
        .select({ id: servicePlans.id, ownerId: servicePlans.ownerId })
        .from(servicePlanDevices)
        .innerJoin(servicePlans, eq(servicePlans.id, servicePlanDevices.planId))
        .where(
          and(
            eq(servicePlanDevices.serial, serial),
            inArray(servicePlans.status, ['published', 'in_progress']),
            isNotNull(servicePlans.publishedAt),
          ),
        );
    },
  };
  return {
    ...repo,
    transaction<T>(fn: (tx: typeof repo) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(serviceDayRepository(tx as unknown as Db)));
    },
  };
}
export type ServiceDayRepository = ReturnType<typeof serviceDayRepository>;
