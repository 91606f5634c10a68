import { and, asc, desc, eq, exists, inArray, isNotNull, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import { OPEN_BILL_STATUSES, OVERDUE_DEACTIVATION_REASON } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { billDevices, bills, brands, devices, paymentWebhookEvents, users } from '../db/schema.ts';

export type BillRow = typeof bills.$inferSelect;
export type BillDeviceRow = { id: number; serial: string; label: string; address: string; brandName: string | null };
export type BillWithDetails = {
  bill: BillRow;
  serials: string[];
  payer: { id: number; email: string; username: string; company: string };
};

/** Bills that hold a device on a plan: waiting for payment, or paid and in force. */
const HOLDING_STATUSES = [...OPEN_BILL_STATUSES, 'ACTIVE'];

/** What the billing service needs from storage; a fake of it tests the service without a database. */
export interface BillingRepository {
  transaction<T>(fn: (repo: BillingRepository) => Promise<T>): Promise<T>;
  /**
   * Serialises bill writes until the transaction ends: two checkouts cannot put one device on a plan twice,
   * and a payment never interleaves with the overdue check.
   */
  lockBilling(): Promise<void>;
  /** Placed devices (on a site) of the scope; only these serials when given. */
  scopedDevices(scope: SQL | undefined, serials?: string[]): Promise<BillDeviceRow[]>;
  /** Placed devices of the scope not held by any bill of the product (whoever pays it). */
  devicesNotOnPlan(scope: SQL | undefined, productPath: string): Promise<BillDeviceRow[]>;
  /** Of these devices, those already held by a bill of the product. */
  devicesOnPlan(productPath: string, deviceIds: number[]): Promise<BillDeviceRow[]>;
  billByUid(billUid: string, opts?: { lock?: boolean }): Promise<BillRow | undefined>;
  billDeviceIds(billId: number): Promise<number[]>;
  insertBill(values: typeof bills.$inferInsert, deviceIds: number[]): Promise<BillRow>;
  /**
   * Bills, newest first: every bill (no viewer), or those a viewer pays plus those holding a device of its
   * scope; a bill the viewer does not pay lists only the devices of that scope.
   */
  listBills(filter: { viewer?: { payerId: number; scope: SQL | undefined }; id?: number }): Promise<BillWithDetails[]>;
  markPaid(billId: number, paid: { at: Date; reference: string | null; paidBy: number | null }): Promise<BillRow | undefined>;
  /** Records a webhook event id; false when it was already recorded (a replay). */
  recordWebhookEvent(eventId: string, provider: string, billUid: string): Promise<boolean>;
  /** PENDING bills whose due date has passed become OVERDUE; answers how many. */
  markOverdue(today: string): Promise<number>;
  /** Activated payers of an open bill due on or before `lastDueDate` (15 days before today). */
  payersPastDeactivation(lastDueDate: string): Promise<number[]>;
  /** Deactivates these accounts for an overdue invoice; answers the ids that were still active. */
  deactivate(userIds: number[]): Promise<number[]>;
  /**
   * Re-activates the user if the overdue rule deactivated it and no open bill of it is due on or before
   * `lastDueDate` any more; answers whether it did.
   */
  reactivateIfClear(userId: number, lastDueDate: string): Promise<boolean>;
}

const deviceColumns = {
  id: devices.id,
  serial: devices.serial,
  label: devices.label,
  address: devices.address,
  brandName: brands.name,
};

/** The SQL of the billing calls. Built on a database or on a transaction (see `transaction`). */
export function billingRepository(db: Db): BillingRepository {
  const heldBy = (productPath: string) =>
    db
      .select({ one: sql`1` })
      .from(billDevices)
      .innerJoin(bills, eq(bills.id, billDevices.billId))
      .where(
        and(eq(billDevices.deviceId, devices.id), eq(bills.productName, productPath), inArray(bills.status, HOLDING_STATUSES)),
      );

  return {
    transaction<T>(fn: (repo: BillingRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(billingRepository(tx as unknown as Db)));
    },

    async lockBilling() {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('fleet:billing'))`);
    },

    async scopedDevices(scope, serials) {
      if (serials && !serials.length) return [];
      return db
        .select(deviceColumns)
        .from(devices)
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .where(and(isNotNull(devices.groupId), scope, serials ? inArray(devices.serial, serials) : undefined))
        .orderBy(asc(devices.serial));
    },

    async devicesNotOnPlan(scope, productPath) {
      return db
        .select(deviceColumns)
        .from(devices)
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .where(and(isNotNull(devices.groupId), scope, notExists(heldBy(productPath))))
        .orderBy(asc(devices.serial));
    },

    async devicesOnPlan(productPath, deviceIds) {
      if (!deviceIds.length) return [];
      return db
        .selectDistinct(deviceColumns)
        .from(devices)
        .leftJoin(brands, eq(brands.id, devices.brandId))
        .innerJoin(billDevices, eq(billDevices.deviceId, devices.id))
        .innerJoin(bills, eq(bills.id, billDevices.billId))
        .where(and(inArray(devices.id, deviceIds), eq(bills.productName, productPath), inArray(bills.status, HOLDING_STATUSES)))
        .orderBy(asc(devices.serial));
    },

    async billByUid(billUid, opts = {}) {
      const q = db.select().from(bills).where(eq(bills.billUid, billUid));
      const [row] = await (opts.lock ? q.for('update') : q);
      return row;
    },

    async billDeviceIds(billId) {
      const rows = await db.select({ id: billDevices.deviceId }).from(billDevices).where(eq(billDevices.billId, billId));
      return rows.map((r) => r.id);
    },

    async insertBill(values, deviceIds) {
      const [row] = await db.insert(bills).values(values).returning();
      if (deviceIds.length) await db.insert(billDevices).values(deviceIds.map((deviceId) => ({ billId: row!.id, deviceId })));
      return row!;
    },

    async listBills(filter) {
      const viewer = filter.viewer;
      // The devices of a bill the viewer may see: all when it pays it, else those of its scope.
      const visible = viewer ? or(eq(bills.userId, viewer.payerId), viewer.scope ?? sql`true`) : undefined;
      const holdsVisible = viewer
        ? db
            .select({ one: sql`1` })
            .from(billDevices)
            .innerJoin(devices, eq(devices.id, billDevices.deviceId))
            .where(and(eq(billDevices.billId, bills.id), viewer.scope))
        : undefined;
      const rows = await db
        .select({
          bill: bills,
          serials: sql<string[]>`coalesce((
            select array_agg(${devices.serial} order by ${devices.serial})
            from ${billDevices} join ${devices} on ${devices.id} = ${billDevices.deviceId}
            where ${billDevices.billId} = ${bills.id} and ${visible ?? sql`true`}), '{}')`,
          payer: { id: users.id, email: users.email, username: users.username, company: users.company },
        })
        .from(bills)
        .innerJoin(users, eq(users.id, bills.userId))
        .where(
          and(
            viewer ? or(eq(bills.userId, viewer.payerId), exists(holdsVisible!)) : undefined,
            filter.id != null ? eq(bills.id, filter.id) : undefined,
          ),
        )
        .orderBy(desc(bills.createdAt), desc(bills.id));
      return rows.map((r) => ({ ...r, serials: r.serials ?? [] }));
    },

    async markPaid(billId, paid) {
      const [row] = await db
        .update(bills)
        .set({ status: 'ACTIVE', paidAt: paid.at, paymentReference: paid.reference, paidBy: paid.paidBy })
        .where(and(eq(bills.id, billId), inArray(bills.status, [...OPEN_BILL_STATUSES])))
        .returning();
      return row;
    },

    async recordWebhookEvent(eventId, provider, billUid) {
      const inserted = await db
        .insert(paymentWebhookEvents)
        .values({ eventId, provider, billUid })
        .onConflictDoNothing()
        .returning({ id: paymentWebhookEvents.eventId });
      return inserted.length > 0;
    },

    async markOverdue(today) {
      const rows = await db
        .update(bills)
        .set({ status: 'OVERDUE' })
        .where(and(eq(bills.status, 'PENDING'), sql`${bills.dueDate} < ${today}::date`))
        .returning({ id: bills.id });
      return rows.length;
    },

    async payersPastDeactivation(lastDueDate) {
      const rows = await db
        .selectDistinct({ id: users.id })
        .from(bills)
        .innerJoin(users, eq(users.id, bills.userId))
        .where(and(inArray(bills.status, [...OPEN_BILL_STATUSES]), lte(bills.dueDate, lastDueDate), eq(users.activated, true)))
        .orderBy(asc(users.id));
      return rows.map((r) => r.id);
    },

    async deactivate(userIds) {
      if (!userIds.length) return [];
      const rows = await db
        .update(users)
        .set({ activated: false, deactivatedReason: OVERDUE_DEACTIVATION_REASON })
        .where(and(inArray(users.id, userIds), eq(users.activated, true)))
        .returning({ id: users.id });
      return rows.map((r) => r.id);
    },

    async reactivateIfClear(userId, lastDueDate) {
      const stillOverdue = db
        .select({ one: sql`1` })
        .from(bills)
        .where(and(eq(bills.userId, userId), inArray(bills.status, [...OPEN_BILL_STATUSES]), lte(bills.dueDate, lastDueDate)));
      const rows = await db
        .update(users)
        .set({ activated: true, deactivatedReason: null })
        .where(
          and(
            eq(users.id, userId),
            eq(users.activated, false),
            // Only an account the overdue rule deactivated (the demo seed writes the same reason): never a
            // pending sign-up or an account closed for another reason.
            eq(users.deactivatedReason, OVERDUE_DEACTIVATION_REASON),
            notExists(stillOverdue),
          ),
        )
        .returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
