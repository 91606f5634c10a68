import { and, eq, sql } from 'drizzle-orm';
import type { JobLedger } from '@fleet/workers';
import type { Db } from '../db/client.ts';
import { jobRuns } from '../db/schema.ts';

/** The idempotency ledger in the database: one row per key; a key that is done or running is skipped. */
export function dbJobLedger(db: Db, staleAfterMs = 10 * 60_000): JobLedger {
  return {
    async begin(key, name, opts = {}) {
      const [inserted] = await db
        .insert(jobRuns)
        .values({ idempotencyKey: key, name, attempts: 1 })
        .onConflictDoNothing()
        .returning();
      if (inserted) return 'run';
      // Retry a failed key, or one whose worker died long ago (or that the queue says died: takeOver);
      // never one that is done or live.
      const deadRunner = opts.takeOver
        ? sql`${jobRuns.status} = 'running'`
        : sql`(${jobRuns.status} = 'running' and ${jobRuns.createdAt} < now() - make_interval(secs => ${staleAfterMs / 1000}))`;
      const [taken] = await db
        .update(jobRuns)
        .set({ status: 'running', attempts: sql`${jobRuns.attempts} + 1`, createdAt: new Date() })
        .where(and(eq(jobRuns.idempotencyKey, key), sql`(${jobRuns.status} = 'failed' or ${deadRunner})`))
        .returning();
      return taken ? 'run' : 'skip';
    },
    async done(key) {
      await db
        .update(jobRuns)
        .set({ status: 'done', finishedAt: new Date(), lastError: null })
        .where(eq(jobRuns.idempotencyKey, key));
    },
    async failed(key, error) {
      await db
        .update(jobRuns)
        .set({ status: 'failed', lastError: error.slice(0, 2000) })
        .where(eq(jobRuns.idempotencyKey, key));
    },
  };
}
