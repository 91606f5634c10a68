import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { brands, deviceGroups, devices, locations, reportEmails, reportTagDevices, reportTags, users } from '../db/schema.ts';

export type ReportEmailRow = typeof reportEmails.$inferSelect;
export type ReportTagRow = typeof reportTags.$inferSelect;
export type TagDeviceRow = { tagId: number; deviceId: number; serial: string; label: string };

/** A device as a report shows it, with its site zone (null when not placed or the site has none). */
export type ReportDeviceRow = {
  id: number;
  serial: string;
  label: string;
  address: string;
  siteId: number | null;
  siteName: string | null;
  brandId: number | null;
  brandName: string | null;
  locationId: number | null;
  county: string | null;
  timezoneId: string | null;
  leftPumpType: string;
  rightPumpType: string;
  warningLists: string[];
};

/** What the report service needs from storage; a fake of it tests the service without a database. */
export interface ReportsRepository {
  transaction<T>(fn: (repo: ReportsRepository) => Promise<T>): Promise<T>;
  /** Serialises the report-list writes of one user until the transaction ends (duplicate checks, limits). */
  lockOwner(ownerId: number): Promise<void>;

  emails(ownerId: number): Promise<ReportEmailRow[]>;
  emailById(ownerId: number, id: number): Promise<ReportEmailRow | undefined>;
  emailTaken(ownerId: number, email: string, exceptId?: number): Promise<boolean>;
  insertEmail(values: typeof reportEmails.$inferInsert): Promise<ReportEmailRow>;
  updateEmail(
    ownerId: number,
    id: number,
    values: Partial<Pick<ReportEmailRow, 'email' | 'name' | 'isEnable' | 'confirmedAt' | 'confirmTokenHash'>>,
  ): Promise<ReportEmailRow | undefined>;
  removeEmail(ownerId: number, id: number): Promise<boolean>;
  /** The name and email of a list's owner, for the confirmation mail. */
  ownerLabel(ownerId: number): Promise<string>;
  /**
   * Takes the day's one confirmation mail of an address (whoever asks): true when none was sent to it in the
   * 24 hours before `now`, and records this one. One statement, so two processes cannot both take it.
   */
  claimConfirmationMail(email: string, now: Date): Promise<boolean>;
  /** Confirms the recipient whose last confirmation link carried this token hash, using the token up. */
  confirmByTokenHash(tokenHash: string, now: Date): Promise<ReportEmailRow | undefined>;

  tags(ownerId: number, id?: number): Promise<ReportTagRow[]>;
  /** The devices of these tags that lie in `scope` (a tag keeps devices the owner can no longer see; they are not shown). */
  tagDevices(tagIds: number[], scope: SQL | undefined): Promise<TagDeviceRow[]>;
  tagNameTaken(ownerId: number, name: string, exceptId?: number): Promise<boolean>;
  insertTag(values: typeof reportTags.$inferInsert): Promise<ReportTagRow>;
  renameTag(ownerId: number, id: number, name: string): Promise<void>;
  setTagDevices(tagId: number, deviceIds: number[]): Promise<void>;
  removeTag(ownerId: number, id: number): Promise<boolean>;

  /** The devices with these serials that lie in `scope`, in no particular order. */
  devicesBySerials(serials: string[], scope: SQL | undefined): Promise<ReportDeviceRow[]>;
  /** Every device on a site that lies in `scope` (the daily and weekly summaries), in no particular order. */
  siteDevices(scope: SQL | undefined): Promise<ReportDeviceRow[]>;
}

export function reportsRepository(db: Db): ReportsRepository {
  return {
    transaction<T>(fn: (repo: ReportsRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(reportsRepository(tx as unknown as Db)));
    },

    async lockOwner(ownerId: number): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('fleet:reports:owner'), ${ownerId}::int)`);
    },

    emails(ownerId: number) {
      return db.select().from(reportEmails).where(eq(reportEmails.ownerId, ownerId)).orderBy(asc(reportEmails.id));
    },

    async emailById(ownerId: number, id: number) {
      const [row] = await db
        .select()
        .from(reportEmails)
        .where(and(eq(reportEmails.ownerId, ownerId), eq(reportEmails.id, id)));
      return row;
    },

    async emailTaken(ownerId: number, email: string, exceptId?: number) {
      const [row] = await db
        .select({ id: reportEmails.id })
        .from(reportEmails)
        .where(
          and(
            eq(reportEmails.ownerId, ownerId),
            sql`lower(${reportEmails.email}) = lower(${email})`,
            exceptId != null ? ne(reportEmails.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return !!row;
    },

    async insertEmail(values) {
      const [row] = await db.insert(reportEmails).values(values).returning();
      return row!;
    },

    async updateEmail(ownerId, id, values) {
      const [row] = await db
        .update(reportEmails)
        .set(values)
        .where(and(eq(reportEmails.ownerId, ownerId), eq(reportEmails.id, id)))
        .returning();
      return row;
    },

    async ownerLabel(ownerId) {
      const [row] = await db.select({ username: users.username, email: users.email }).from(users).where(eq(users.id, ownerId));
      return row ? (row.username?.trim() ? `${row.username.trim()} (${row.email})` : row.email) : 'A fleet portal user';
    },

    async claimConfirmationMail(email, now) {
      const dayBefore = new Date(now.getTime() - 86_400_000);
      const res = (await db.execute(sql`
        insert into report_recipient_confirmations (email, last_sent_at) values (lower(${email}), ${now.toISOString()}::timestamptz)
        on conflict (email) do update set last_sent_at = excluded.last_sent_at
        where report_recipient_confirmations.last_sent_at <= ${dayBefore.toISOString()}::timestamptz
        returning email`)) as unknown as { rows: unknown[] };
      return res.rows.length > 0;
    },

    async confirmByTokenHash(tokenHash, now) {
      const [row] = await db
        .update(reportEmails)
        .set({ confirmedAt: now, confirmTokenHash: null })
        .where(eq(reportEmails.confirmTokenHash, tokenHash))
        .returning();
      return row;
    },

    async removeEmail(ownerId, id) {
      const gone = await db
        .delete(reportEmails)
        .where(and(eq(reportEmails.ownerId, ownerId), eq(reportEmails.id, id)))
        .returning({ id: reportEmails.id });
      return gone.length > 0;
    },

    tags(ownerId: number, id?: number) {
      return db
        .select()
        .from(reportTags)
        .where(and(eq(reportTags.ownerId, ownerId), id != null ? eq(reportTags.id, id) : undefined))
        .orderBy(asc(reportTags.name), asc(reportTags.id));
    },

    async tagDevices(tagIds: number[], scope: SQL | undefined) {
      if (!tagIds.length) return [];
      return db
        .select({ tagId: reportTagDevices.tagId, deviceId: devices.id, serial: devices.serial, label: devices.label })
        .from(reportTagDevices)
        .innerJoin(devices, eq(devices.id, reportTagDevices.deviceId))
        .where(and(inArray(reportTagDevices.tagId, tagIds), scope))
        .orderBy(asc(devices.serial));
    },

    async tagNameTaken(ownerId: number, name: string, exceptId?: number) {
      const [row] = await db
        .select({ id: reportTags.id })
        .from(reportTags)
        .where(
          and(
            eq(reportTags.ownerId, ownerId),
            sql`lower(btrim(${reportTags.name})) = lower(btrim(${name}))`,
            exceptId != null ? ne(reportTags.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return !!row;
    },

    async insertTag(values) {
      const [row] = await db.insert(reportTags).values(values).returning();
      return row!;
    },

    async renameTag(ownerId, id, name) {
      await db
        .update(reportTags)
        .set({ name })
        .where(and(eq(reportTags.ownerId, ownerId), eq(reportTags.id, id)));
    },

    async setTagDevices(tagId, deviceIds) {
      await db.delete(reportTagDevices).where(eq(reportTagDevices.tagId, tagId));
      if (deviceIds.length) await db.insert(reportTagDevices).values(deviceIds.map((deviceId) => ({ tagId, deviceId })));
    },

    async removeTag(ownerId, id) {
      const gone = await db
        .delete(reportTags)
        .where(and(eq(reportTags.ownerId, ownerId), eq(reportTags.id, id)))
        .returning({ id: reportTags.id });
      return gone.length > 0;
    },

    async devicesBySerials(serials: string[], scope: SQL | undefined) {
      if (!serials.length) return [];
      return reportDevices(db, and(inArray(devices.serial, serials), scope));
    },

    siteDevices(scope: SQL | undefined) {
      return reportDevices(db, and(isNotNull(devices.groupId), scope));
    },
  };
}

/** Devices as a report shows them, with their site, brand, county and zone. */
function reportDevices(db: Db, where: SQL | undefined): Promise<ReportDeviceRow[]> {
  return db
    .select({
      id: devices.id,
      serial: devices.serial,
      label: devices.label,
      address: devices.address,
      siteId: deviceGroups.id,
      siteName: deviceGroups.name,
      brandId: devices.brandId,
      brandName: brands.name,
      locationId: deviceGroups.locationId,
      county: locations.name,
      timezoneId: deviceGroups.timezoneId,
      leftPumpType: devices.leftPumpType,
      rightPumpType: devices.rightPumpType,
      warningLists: devices.warningLists,
    })
    .from(devices)
    .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
    .leftJoin(brands, eq(brands.id, devices.brandId))
    .leftJoin(locations, eq(locations.id, deviceGroups.locationId))
    .where(where);
}
