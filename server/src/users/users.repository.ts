import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { ClientUser } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

/** The users' own column, spelled out: inside the brands subquery a bare "id" would mean the inner table's. */
const outerUserId = sql.raw('"users"."id"');

export function usersRepository(db: Db) {
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
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;
