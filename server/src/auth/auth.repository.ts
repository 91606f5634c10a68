import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authTokens, passwordResetTokens, users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export function authRepository(db: Db) {
  // Every authenticated call looks its token up: the query is prepared once, so its SQL is not built anew
  // by drizzle on each call (a CPU profile of the bench's REST round had drizzle's query building among the
  // server's busiest functions, on the event loop the device check-ins share).
  const userByTokenHash = db
    .select({ user: users, tokenId: authTokens.id, createdAt: authTokens.createdAt, lastUsedAt: authTokens.lastUsedAt })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.keyHash, sql.placeholder('keyHash')))
    .limit(1)
    .prepare('auth_user_by_token_hash');
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },
    async findUserById(id: number): Promise<UserRow | undefined> {
      if (!Number.isInteger(id) || id <= 0) return undefined;
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async createUser(values: typeof users.$inferInsert): Promise<UserRow | undefined> {
      // ON CONFLICT: two sign-ups racing for one email give one user and one clear 400, never a 500.
      const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning();
      return row;
    },
    async createToken(userId: number, keyHash: string): Promise<void> {
      await db.insert(authTokens).values({ userId, keyHash });
    },
    /** The user behind a token, with the token's id, creation and last use (as they were before this call). */
    async findUserByTokenHash(
      keyHash: string,
    ): Promise<(UserRow & { tokenId: number; tokenCreatedAt: Date; tokenLastUsedAt: Date | null }) | undefined> {
      const [row] = await userByTokenHash.execute({ keyHash });
      if (!row) return undefined;
      return { ...row.user, tokenId: row.tokenId, tokenCreatedAt: row.createdAt, tokenLastUsedAt: row.lastUsedAt };
    },
    async touchToken(tokenId: number, at: Date): Promise<void> {
      await db.update(authTokens).set({ lastUsedAt: at }).where(eq(authTokens.id, tokenId));
    },
    async deleteTokenById(tokenId: number): Promise<void> {
      await db.delete(authTokens).where(eq(authTokens.id, tokenId));
    },
    async deleteTokensOf(userId: number): Promise<void> {
      await db.delete(authTokens).where(eq(authTokens.userId, userId));
    },
    /** Revokes one token; answers its id (the session room its sockets joined), if it existed. */
    async deleteToken(keyHash: string): Promise<number | undefined> {
      const [row] = await db.delete(authTokens).where(eq(authTokens.keyHash, keyHash)).returning({ id: authTokens.id });
      return row?.id;
    },
    async createResetToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });
    },
    /**
     * Sets the new password if the reset token is valid, in one transaction: the token is spent, every
     * API token of the user is revoked. Answers the user's id, or undefined (and changes nothing) for an
     * unknown, used or expired token.
     */
    async resetPassword(tokenHash: string, passwordHash: string, now: Date): Promise<number | undefined> {
      return db.transaction(async (tx) => {
        const [token] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, tokenHash),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, now),
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!token) return undefined;
        await tx.update(users).set({ passwordHash }).where(eq(users.id, token.userId));
        await tx.delete(authTokens).where(eq(authTokens.userId, token.userId));
        // Other outstanding reset links of the same user stop working too.
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.userId, token.userId), isNull(passwordResetTokens.usedAt)));
        return token.userId;
      });
    },
    async countUsers(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return row?.n ?? 0;
    },
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
