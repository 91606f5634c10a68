import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PartnerUser } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { devices, userExclusiveDevices, users } from '../db/schema.ts';

export type PartnerAccountRow = { id: number; email: string; userType: string; activated: boolean };
export type DeviceRef = { id: number; serial: string };

/** The users' own column, spelled out: inside the subqueries a bare "id" would mean the inner table's. */
const outerUserId = sql.raw('"users"."id"');

/** What the partners service needs from storage; a fake of it tests the service without a database. */
export interface PartnersRepository {
  transaction<T>(fn: (repo: PartnersRepository) => Promise<T>): Promise<T>;
  /** Every account but rejected sign-ups (id filters to one), with brands and exclusive devices. */
  listUsers(id?: number): Promise<PartnerUser[]>;
  /** The account with this email, locked for the rest of the transaction. */
  accountByEmail(email: string): Promise<PartnerAccountRow | undefined>;
  devicesBySerials(serials: string[]): Promise<DeviceRef[]>;
  /** Adds the pairs not there yet; answers the devices newly added. */
  addExclusive(userId: number, deviceIds: number[]): Promise<number[]>;
  /** Removes the pairs that exist; answers the devices removed. */
  removeExclusive(userId: number, deviceIds: number[]): Promise<number[]>;
}

export function partnersRepository(db: Db): PartnersRepository {
  return {
    transaction<T>(fn: (repo: PartnersRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(partnersRepository(tx as unknown as Db)));
    },

    async listUsers(id?: number): Promise<PartnerUser[]> {
      const rows = await db
        .select({
          id: users.id,
          name: users.username,
          company: users.company,
          email: users.email,
          phone: users.phone,
          role: users.role,
          user_type: users.userType,
          activated: users.activated,
          profile_url: users.profileUrl,
          is_enable_notification_email: users.notifyEmail,
          is_enable_notification_phone: users.notifyPhone,
          is_enable_notification_weekly_report: users.notifyWeeklyReport,
          is_enable_notification_daily_dispensation: users.notifyDailyDispensation,
          brands: sql<PartnerUser['brands']>`coalesce((
            select json_agg(json_build_object('id', b.id, 'name', b.name) order by lower(b.name), b.id)
            from brand_clients bc join brands b on b.id = bc.brand_id
            where bc.user_id = ${outerUserId}), '[]'::json)`,
          exclusive: sql<{ id: number; serial: string }[]>`coalesce((
            select json_agg(json_build_object('id', d.id, 'serial', d.serial) order by d.serial)
            from user_exclusive_devices x join devices d on d.id = x.device_id
            where x.user_id = ${outerUserId}), '[]'::json)`,
        })
        .from(users)
        .where(and(isNull(users.rejectedAt), id === undefined ? undefined : eq(users.id, id)))
        .orderBy(asc(sql`lower(${users.company})`), asc(sql`lower(${users.username})`), asc(users.id));
      return rows.map(({ exclusive, ...r }) => ({
        ...r,
        type: r.user_type,
        brands: r.brands ?? [],
        exclusive_device_serials: (exclusive ?? []).map((d) => d.serial),
        exclusive_devices: (exclusive ?? []).map((d) => d.id),
      }));
    },

    async accountByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, userType: users.userType, activated: users.activated })
        .from(users)
        .where(eq(users.email, email))
        .for('update');
      return row;
    },

    async devicesBySerials(serials: string[]) {
      if (!serials.length) return [];
      return db.select({ id: devices.id, serial: devices.serial }).from(devices).where(inArray(devices.serial, serials));
    },

    async addExclusive(userId: number, deviceIds: number[]) {
      if (!deviceIds.length) return [];
      const rows = await db
        .insert(userExclusiveDevices)
        .values(deviceIds.map((deviceId) => ({ userId, deviceId })))
        .onConflictDoNothing()
        .returning({ deviceId: userExclusiveDevices.deviceId });
      return rows.map((r) => r.deviceId);
    },

    async removeExclusive(userId: number, deviceIds: number[]) {
      if (!deviceIds.length) return [];
      const rows = await db
        .delete(userExclusiveDevices)
        .where(and(eq(userExclusiveDevices.userId, userId), inArray(userExclusiveDevices.deviceId, deviceIds)))
        .returning({ deviceId: userExclusiveDevices.deviceId });
      return rows.map((r) => r.deviceId);
    },
  };
}
