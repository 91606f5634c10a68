import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { JobQueue } from '@fleet/workers';
import type { Db } from '../db/client.ts';
import { jobRuns, outbox } from '../db/schema.ts';

export type OutboxOptions = {
  /** Refuses a payload its job would refuse (it would sit in the outbox for nothing). */
  validate: (name: string, payload: unknown) => void;
  log?: (m: string, e?: unknown) => void;
  /** How often the relay looks for rows to hand over (and for rows a lost queue dropped). */
  intervalMs?: number;
  /** A row handed over this long ago whose job the ledger has not seen is handed over again. */
  resendAfterMs?: number;
  /** How long one hand-over may take before the queue counts as down for this pass. */
  enqueueTimeoutMs?: number;
  /**
   * The request a job is recorded in, kept with the row, and the context its hand-over runs in: the relay
   * pass that hands a row to the queue may run in another process (every server and worker relays), so
   * the id travels in the row rather than in this process's memory.
   */
  trace?: { current(): string | undefined; run<T>(requestId: string, fn: () => Promise<T>): Promise<T> };
};

/**
 * The queue in front of the job queue for every job with an idempotency key (report, recall and
 * dispensation mails): `enqueue` records the job in the outbox table, in the database the request
 * already depends on, and returns; the relay hands it to the queue (BullMQ on Redis, or the in-process
 * runner) right after and again on a timer. So a request is answered as soon as its mail is recorded,
 * whether Redis is up, down or restarting, and nothing a 202 promised is lost: a row stays pending until
 * the job ledger (job_runs) says the job is done, and one whose job vanished (Redis restarted without
 * its data, a process killed with jobs in memory) is handed over again. The ledger and BullMQ's
 * deterministic job id keep a job handed over twice from running twice.
 *
 * A job the queue gave up on (every attempt failed) is marked failed with the ledger's error: a trace,
 * not a silent loss. Jobs without an idempotency key go straight to the queue (they cannot be deduplicated).
 */
export function outboxQueue<N extends string>(
  db: Db,
  inner: JobQueue<N>,
  opts: OutboxOptions,
): JobQueue<N> & { relay(): Promise<void> } {
  const log = opts.log ?? (() => undefined);
  const resendAfterMs = opts.resendAfterMs ?? 30_000;
  const enqueueTimeoutMs = opts.enqueueTimeoutMs ?? 2_000;
  /** Keys whose hand-over has not returned (a queue waiting for Redis): never handed over twice at once. */
  const inFlight = new Set<string>();
  let pass: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function handOver(row: {
    id: number;
    jobName: string;
    payload: unknown;
    idempotencyKey: string;
    requestId: string | null;
  }): Promise<boolean> {
    inFlight.add(row.idempotencyKey);
    const enqueue = () => inner.enqueue(row.jobName as N, row.payload, { idempotencyKey: row.idempotencyKey });
    const sent = (row.requestId && opts.trace ? opts.trace.run(row.requestId, enqueue) : enqueue()).finally(() =>
      inFlight.delete(row.idempotencyKey),
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sent,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`queue did not answer within ${enqueueTimeoutMs} ms`)), enqueueTimeoutMs);
        }),
      ]);
      await db
        .update(outbox)
        .set({ relayedAt: new Date(), relayAttempts: sql`${outbox.relayAttempts} + 1`, lastError: null })
        .where(eq(outbox.id, row.id));
      return true;
    } catch (err) {
      sent.catch(() => undefined);
      await db
        .update(outbox)
        .set({ relayAttempts: sql`${outbox.relayAttempts} + 1`, lastError: String((err as Error)?.message ?? err).slice(0, 500) })
        .where(eq(outbox.id, row.id));
      log('outbox: the queue refused a job; it stays recorded and is handed over again', err);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async function relayOnce(): Promise<void> {
    const stale = new Date(Date.now() - resendAfterMs);
    const rows = await db
      .select({
        id: outbox.id,
        jobName: outbox.jobName,
        payload: outbox.payload,
        idempotencyKey: outbox.idempotencyKey,
        requestId: outbox.requestId,
        relayedAt: outbox.relayedAt,
        ledger: jobRuns.status,
        ledgerError: jobRuns.lastError,
      })
      .from(outbox)
      .leftJoin(jobRuns, eq(jobRuns.idempotencyKey, outbox.idempotencyKey))
      .where(
        and(
          eq(outbox.status, 'pending'),
          or(isNull(outbox.relayedAt), lt(outbox.relayedAt, stale), inArray(jobRuns.status, ['done', 'failed'])),
        ),
      )
      .orderBy(outbox.id)
      .limit(500);
    const done = rows.filter((r) => r.ledger === 'done').map((r) => r.id);
    if (done.length) await db.update(outbox).set({ status: 'done', finishedAt: new Date() }).where(inArray(outbox.id, done));
    for (const r of rows) {
      if (r.ledger === 'done' || inFlight.has(r.idempotencyKey)) continue;
      // BullMQ retries a failed attempt itself: the row is given up only once the last one is long past.
      if (r.ledger === 'failed' && r.relayedAt) {
        if (r.relayedAt < stale)
          await db
            .update(outbox)
            .set({ status: 'failed', finishedAt: new Date(), lastError: r.ledgerError })
            .where(eq(outbox.id, r.id));
        continue;
      }
      if (r.relayedAt && r.ledger === 'running') continue;
      // The queue is down: the rest wait for the next pass rather than each waiting out the timeout.
      if (!(await handOver(r))) return;
    }
  }

  /** One pass at a time; a call during a pass asks for another one after it. */
  function relay(): Promise<void> {
    if (pass) {
      again = true;
      return pass;
    }
    pass = (async () => {
      do {
        again = false;
        try {
          await relayOnce();
        } catch (err) {
          log('outbox relay failed (database?)', err);
        }
      } while (again && !closed);
    })().finally(() => {
      pass = undefined;
    });
    return pass;
  }

  const timer = setInterval(() => void relay(), opts.intervalMs ?? 2_000);
  timer.unref();
  void relay(); // rows left by the previous run

  return {
    async enqueue(name, payload, o = {}) {
      if (!o.idempotencyKey) return inner.enqueue(name, payload, o);
      if (closed) throw new Error('queue is closed');
      opts.validate(name, payload);
      // The same job again (a client retrying its request): handed over again unless it is done, so a
      // job that failed every attempt is tried anew (the ledger lets a failed key run again).
      await db
        .insert(outbox)
        .values({ jobName: name, payload, idempotencyKey: o.idempotencyKey, requestId: opts.trace?.current() ?? null })
        .onConflictDoUpdate({
          target: outbox.idempotencyKey,
          set: { status: 'pending', relayedAt: null, finishedAt: null },
          setWhere: sql`${outbox.status} <> 'done'`,
        });
      void relay();
    },
    async drain() {
      // Everything recorded so far handed over (or the queue is down: then drain returns what it can).
      for (let i = 0; i < 100; i++) {
        await relay();
        const [left] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(outbox)
          .where(and(eq(outbox.status, 'pending'), isNull(outbox.relayedAt)));
        if (!left?.n) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await inner.drain();
      await relay();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await pass;
      await inner.close();
    },
    relay,
  };
}
