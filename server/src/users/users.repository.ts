import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { ClientUser } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
/** What editUser, activeUser and rejectUser may change on an account. */
export type UserPatch = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'username'
    | 'company'
    | 'phone'
    | 'profileUrl'
    | 'notifyEmail'
    | 'notifyPhone'
    | 'notifyWeeklyReport'
    | 'notifyDailyDispensation'
    | 'activated'
    | 'rejectedAt'
    | 'role'
    | 'userType'
  >
>;

/**
 * A sign-up request waiting for a decision: not activated, not rejected, and not an account that was
 * deactivated for an overdue invoice (that one has a reason and is re-activated by payment, not here).
 */
export const isPendingSignUp = and(eq(users.activated, false), isNull(users.rejectedAt), isNull(users.deactivatedReason));

/** The users' own column, spelled out: inside the brands subquery a bare "id" would mean the inner table's. */
const outerUserId = sql.raw('"users"."id"');

export function usersRepository(db: Db): UsersRepository {
  return {
    /**
     * The client accounts a brand may be assigned to, with the brands each already has: activated,
     * role client, never a market partner (the same rule assignBrandToClient checks). A sign-up not yet
     * approved or an account deactivated for an overdue invoice is not offered. By company, then name.
     */
    async listClients(): Promise<ClientUser[]> {
      const rows = await db
        .select({
          id: users.id,
          name: users.username,
          company: users.company,
          email: users.email,
          phone: users.phone,
          profile_url: users.profileUrl,
          is_enable_notification_email: users.notifyEmail,
          is_enable_notification_phone: users.notifyPhone,
          brands: sql<ClientUser['brands']>`coalesce((
            select json_agg(json_build_object('id', b.id, 'name', b.name) order by lower(b.name), b.id)
            from brand_clients bc join brands b on b.id = bc.brand_id
            where bc.user_id = ${outerUserId}), '[]'::json)`,
        })
        .from(users)
        .where(and(eq(users.role, 'client'), ne(users.userType, 'market-partner'), eq(users.activated, true)))
        .orderBy(asc(sql`lower(${users.company})`), asc(sql`lower(${users.username})`), asc(users.id));
      return rows.map((r) => ({ ...r, brands: r.brands ?? [] }));
    },

    /** GET /get_pending_user: the sign-up requests, oldest first (first come, first served). */
    listPendingSignUps(): Promise<UserRow[]> {
      return db.select().from(users).where(isPendingSignUp).orderBy(asc(users.createdAt), asc(users.id));
    },

    /** One account by its (lowercased) email; with `lock`, row-locked until the transaction ends. */
    async byEmail(email: string, opts: { lock?: boolean } = {}): Promise<UserRow | undefined> {
      const q = db.select().from(users).where(eq(users.email, email)).limit(1);
      const [row] = opts.lock ? await q.for('update') : await q;
      return row;
    },

    async update(id: number, patch: UserPatch): Promise<UserRow> {
      const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
      return row!;
    },

    /** Runs `fn` in one transaction, with a repository bound to it: all or nothing. */
    transaction<T>(fn: (repo: UsersRepository) => Promise<T>): Promise<T> {
      return db.transaction((tx) => fn(usersRepository(tx as unknown as Db)));
    },
  };
}
export type UsersRepository = {
  listClients(): Promise<ClientUser[]>;
  listPendingSignUps(): Promise<UserRow[]>;
  byEmail(email: string, opts?: { lock?: boolean }): Promise<UserRow | undefined>;
  update(id: number, patch: UserPatch): Promise<UserRow>;
  transaction<T>(fn: (repo: UsersRepository) => Promise<T>): Promise<T>;
};
