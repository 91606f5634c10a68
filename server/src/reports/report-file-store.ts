import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { reportFiles } from '../db/schema.ts';

/** A built report as its mails need it: what the text says, and the two files. */
export type StoredReport<S> = { summary: S; xlsx: Buffer; pdf: Buffer };

export interface ReportFileStore {
  /**
   * The report stored under `key`, or the one `build` makes if none is: concurrent callers for one key (in
   * this process or another) share one build; a failed build leaves nothing stored, so the next caller builds.
   */
  once<S>(key: string, build: () => Promise<StoredReport<S>>): Promise<StoredReport<S>>;
}

/**
 * Why a table and per-address jobs (rather than one job per request, or Redis): docs/api.md (Reports) promises one
 * `report-email` job per address with its own idempotency key, so a retry resends only the mails that did not
 * go, and the database is the one store every worker shares in both runs (in process and BullMQ; Redis is
 * absent in the default run). The first job of a request to run claims the key with a 'building' row, builds
 * and stores the files; the other jobs of the request, and every retry, attach the stored files. Within a
 * process a promise per key is shared; across processes the others poll the row, and take over a claim whose
 * builder stopped (older than `staleAfterMs`). Rows older than `keepMs` are pruned on each new claim.
 */
export function dbReportFileStore(
  db: Db,
  opts: { staleAfterMs?: number; pollMs?: number; keepMs?: number } = {},
): ReportFileStore {
  const staleAfterMs = opts.staleAfterMs ?? 2 * 60_000;
  const pollMs = opts.pollMs ?? 250;
  const keepMs = opts.keepMs ?? 24 * 3_600_000;
  const building = new Map<string, Promise<StoredReport<unknown>>>();

  const olderThan = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;

  /** True when this caller now holds the key's claim: a new row, or a claim left by a builder that stopped. */
  async function claim(key: string): Promise<boolean> {
    const [inserted] = await db
      .insert(reportFiles)
      .values({ requestKey: key })
      .onConflictDoNothing()
      .returning({ key: reportFiles.requestKey });
    if (inserted) {
      await db.delete(reportFiles).where(lt(reportFiles.createdAt, olderThan(keepMs)));
      return true;
    }
    const [taken] = await db
      .update(reportFiles)
      .set({ claimedAt: new Date() })
      .where(
        and(
          eq(reportFiles.requestKey, key),
          eq(reportFiles.status, 'building'),
          lt(reportFiles.claimedAt, olderThan(staleAfterMs)),
        ),
      )
      .returning({ key: reportFiles.requestKey });
    return !!taken;
  }

  async function storedOrBuilt<S>(key: string, build: () => Promise<StoredReport<S>>): Promise<StoredReport<S>> {
    const deadline = Date.now() + staleAfterMs + 10 * pollMs;
    for (;;) {
      const [row] = await db.select().from(reportFiles).where(eq(reportFiles.requestKey, key));
      if (row?.status === 'ready' && row.xlsx && row.pdf) return { summary: row.summary as S, xlsx: row.xlsx, pdf: row.pdf };
      if (await claim(key)) {
        try {
          const built = await build();
          await db
            .update(reportFiles)
            .set({ status: 'ready', summary: built.summary, xlsx: built.xlsx, pdf: built.pdf })
            .where(eq(reportFiles.requestKey, key));
          return built;
        } catch (err) {
          await db.delete(reportFiles).where(and(eq(reportFiles.requestKey, key), eq(reportFiles.status, 'building')));
          throw err;
        }
      }
      // Fails the job (which retries) rather than waiting forever on a builder that neither ends nor goes stale.
      if (Date.now() > deadline) throw new Error(`report ${key} is still being built by another worker`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  return {
    once<S>(key: string, build: () => Promise<StoredReport<S>>): Promise<StoredReport<S>> {
      const running = building.get(key);
      if (running) return running as Promise<StoredReport<S>>;
      const p = storedOrBuilt(key, build).finally(() => building.delete(key));
      building.set(key, p);
      return p;
    },
  };
}
