import { bullmqQueue, inProcessQueue, jobs, type JobDeps, type JobTraceContext } from '@fleet/workers';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { dbJobLedger } from '../jobs/index.ts';
import type { Mailer } from '../mail/index.ts';
import { reportRenderer } from '../reports/index.ts';
import { servicePlanRenderer } from '../service-day/index.ts';
import { currentRequestId, requestContext } from './logger.ts';

/**
 * The request id travels with a queued job (queue-bullmq.ts) and is the context of its run: every line
 * the job writes, and the line that says it ran, carry the id of the request that queued it. A job
 * recorded in the outbox keeps the id in its row, and the relay hands it over under that id
 * (`outboxTrace`, logger.ts), whichever process runs the relay pass.
 */
export function jobTrace(log: (m: string, e?: unknown) => void): JobTraceContext {
  return {
    current: () => currentRequestId(),
    run(requestId, fn, job) {
      const traced = async () => {
        const started = Date.now();
        try {
          const result = await fn();
          log(`job ${job.name} ${job.id ?? ''} attempt ${job.attempt} done in ${Date.now() - started} ms`);
          return result;
        } catch (err) {
          log(`job ${job.name} ${job.id ?? ''} attempt ${job.attempt} failed after ${Date.now() - started} ms`, err);
          throw err;
        }
      };
      return requestId ? requestContext.run({ requestId }, traced) : traced();
    },
  };
}

/** BullMQ's key prefix: `REDIS_PREFIX` + 'bull', or the historical 'fleet-bull' when no prefix is set. */
export const bullPrefixOf = (redisPrefix: string | undefined) => (redisPrefix ? `${redisPrefix}bull` : 'fleet-bull');

/**
 * The job queue of one process role. With Redis: BullMQ, where `runWorker` decides whether this process
 * also takes jobs (a `start:server` only adds them; a `start:worker` runs them). Without Redis: the
 * in-process runner of the one-command run.
 */
export function jobQueueFor(opts: {
  config: Config;
  database: Database;
  mailer: Mailer;
  runWorker: boolean;
  redisPrefix?: string;
  concurrency?: number;
  log: (m: string, e?: unknown) => void;
  env?: NodeJS.ProcessEnv;
}) {
  const env = opts.env ?? process.env;
  const deps: JobDeps = {
    mailer: heldMailer(opts.mailer, env, opts.config.isProduction, opts.log),
    reports: reportRenderer(opts.database.db),
    servicePlans: servicePlanRenderer(opts.database.db),
  };
  const ledger = dbJobLedger(opts.database.db);
  if (!opts.config.redisUrl) return { queue: inProcessQueue(jobs, deps, ledger, opts.log), depth: undefined };
  const queue = bullmqQueue(jobs, deps, ledger, {
    redisUrl: opts.config.redisUrl,
    prefix: bullPrefixOf(opts.redisPrefix),
    runWorker: opts.runWorker,
    log: opts.log,
    trace: jobTrace(opts.log),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    // JOB_LOCK_MS: how soon a killed worker's jobs are run by another (BullMQ's lock and stall check).
    ...(Number(env.JOB_LOCK_MS) >= 1000 ? { lockMs: Number(env.JOB_LOCK_MS) } : {}),
  });
  return { queue, depth: queue.depth };
}

/**
 * OPS_TEST_MAIL_DELAY_MS (tests only, refused in production): a queued job holds each mail this long
 * before sending it, after the ledger has claimed the job, so a test can kill the worker mid-job
 * (tests/integration/ops-scaled.test.ts). Logs 'job mail held' when the hold starts.
 */
export function heldMailer(mailer: Mailer, env: NodeJS.ProcessEnv, isProduction: boolean, log: (m: string) => void): Mailer {
  const holdMs = Number(env.OPS_TEST_MAIL_DELAY_MS ?? 0);
  if (!(holdMs > 0)) return mailer;
  if (isProduction) throw new Error('OPS_TEST_MAIL_DELAY_MS is a test knob: unset it in production');
  return {
    async send(message) {
      log(`job mail held ${holdMs} ms: ${Array.isArray(message.to) ? message.to.join(',') : message.to}`);
      await new Promise((r) => setTimeout(r, holdMs));
      await mailer.send(message);
    },
  };
}
