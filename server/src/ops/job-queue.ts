import { bullmqQueue, inProcessQueue, jobs, type JobDeps, type JobTraceContext } from '@fleet/workers';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { dbJobLedger } from '../jobs/job-ledger.ts';
import type { Mailer } from '../mail/mailer.ts';
import { reportRenderer } from '../reports/report-mail.ts';
import { currentRequestId, requestContext } from './logger.ts';

/** The request id travels with a queued job (queue-bullmq.ts) and is the context of its run. */
export const jobTrace: JobTraceContext = {
  current: currentRequestId,
  run: (requestId, fn) => (requestId ? requestContext.run({ requestId }, fn) : fn()),
};

/** BullMQ's key prefix: `REDIS_PREFIX` + 'bull', or the historical 'fleet-bull' when no prefix is set. */
export const bullPrefixOf = (redisPrefix: string | undefined) => (redisPrefix ? `${redisPrefix}bull` : 'fleet-bull');

/**
 * The job queue of one process role. With Redis: BullMQ, where `runWorker` decides whether this process
 * also takes jobs (a `start:server` only adds them; a `start:worker` runs them). Without Redis: the
 * in-process runner of the one-command run.
 */
export function jobQueueFor(opts: { config: Config; database: Database; mailer: Mailer; runWorker: boolean; redisPrefix?: string; concurrency?: number; log: (m: string, e?: unknown) => void }) {
  const deps: JobDeps = { mailer: opts.mailer, reports: reportRenderer(opts.database.db) };
  const ledger = dbJobLedger(opts.database.db);
  if (!opts.config.redisUrl) return { queue: inProcessQueue(jobs, deps, ledger, opts.log), depth: undefined };
  const queue = bullmqQueue(jobs, deps, ledger, {
    redisUrl: opts.config.redisUrl,
    prefix: bullPrefixOf(opts.redisPrefix),
    runWorker: opts.runWorker,
    log: opts.log,
    trace: jobTrace,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  return { queue, depth: queue.depth };
}
