import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from './redis.ts';
import type { z } from 'zod';
import { jobIdOf, type JobDefinition, type JobLedger, type JobQueue } from './queue.ts';

type Envelope = { payload: unknown; idempotencyKey?: string; requestId?: string };

/**
 * Carries the id of the request that queued a job into the job's run (server/src/ops/logger.ts), so
 * the worker's log lines of that job name the request: `current` is read at enqueue, `run` wraps the
 * processor.
 */
export type JobTraceContext = {
  current(): string | undefined;
  run<T>(
    requestId: string | undefined,
    fn: () => Promise<T>,
    job: { name: string; id?: string | undefined; attempt: number },
  ): Promise<T>;
};

/**
 * The queue when REDIS_URL is set: BullMQ on Redis, with the same processors as the in-process runner.
 * A job with an idempotency key gets a deterministic job id (BullMQ drops a second add while the first is
 * kept) and passes through the ledger (a retry or a second worker finds the key done and sends nothing).
 * A payload that fails its schema is refused at enqueue and, if it gets in anyway, fails without retry.
 */
export function bullmqQueue<D, J extends Record<string, JobDefinition<z.ZodType, D>>>(
  jobs: J,
  deps: D,
  ledger: JobLedger,
  opts: {
    redisUrl: string;
    prefix?: string;
    queueName?: string;
    concurrency?: number;
    runWorker?: boolean;
    log?: (m: string, e?: unknown) => void;
    trace?: JobTraceContext;
    /**
     * How long a worker's lock on an active job lasts without renewal (BullMQ's lockDuration, 30 s by
     * default): a killed worker's jobs go back to the queue after it, found by the other workers' stall
     * check (every lockMs as well). Shorter: faster recovery, more Redis calls.
     */
    lockMs?: number;
    /**
     * How long close() waits for this worker's running jobs, and then for the queue's connection, before
     * it goes on without them (8 s by default, inside the process's shutdown deadline of 10 s).
     */
    closeTimeoutMs?: number;
  },
): JobQueue<Extract<keyof J, string>> & { worker: Worker | undefined; depth(): Promise<Record<string, number>> } {
  const name = opts.queueName ?? 'fleet-jobs';
  const prefix = opts.prefix ?? 'fleet-bull';
  const log = opts.log ?? (() => undefined);
  // Workers block on Redis: BullMQ requires maxRetriesPerRequest null on their connections.
  const queueConnection = createRedis(opts.redisUrl, 'blocking');
  const queue = new Queue(name, { connection: queueConnection, prefix });
  // An emitter's 'error' without a listener ends the process: Redis going away must only be logged
  // (ioredis reconnects; the outbox keeps what was not queued, server/src/mail/outbox.ts).
  queueConnection.on('error', (err) => log('queue redis error', err));
  queue.on('error', (err) => log('queue error', err));
  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;
  /**
   * This worker's jobs in progress, by job id, for close() to wait for: each settles when BullMQ has
   * recorded its end in Redis (the worker's 'completed' or 'failed' event), not merely when its processor
   * returned, so a close never cuts the job's last write.
   */
  const running = new Map<string, { settled: Promise<void>; settle: () => void }>();
  const ended = (id: string | undefined) => {
    if (id === undefined) return;
    running.get(id)?.settle();
    running.delete(id);
  };
  if (opts.runWorker !== false) {
    workerConnection = createRedis(opts.redisUrl, 'blocking');
    worker = new Worker(
      name,
      async (job) => {
        if (job.id !== undefined && !running.has(job.id)) {
          let settle!: () => void;
          const settled = new Promise<void>((resolve) => (settle = resolve));
          running.set(job.id, { settled, settle });
        }
        const def = jobs[job.name];
        if (!def) throw new UnrecoverableError(`no processor for job ${job.name}`);
        const { payload, idempotencyKey, requestId } = job.data as Envelope;
        const parsed = def.schema.safeParse(payload);
        if (!parsed.success) throw new UnrecoverableError(`invalid payload for ${job.name}`);
        const runJob = async () => {
          // A job BullMQ hands out again after a stall (its worker died mid-job, its lock expired) finds
          // its key 'running' by that dead worker: take it over, or the job would be skipped and lost.
          // The job id is the key's (jobIdOf), so no live worker holds the same key meanwhile.
          if (idempotencyKey && (await ledger.begin(idempotencyKey, job.name, { takeOver: job.stalledCounter > 0 })) === 'skip')
            return;
          try {
            await def.process(parsed.data, deps);
            if (idempotencyKey) await ledger.done(idempotencyKey);
          } catch (err) {
            if (idempotencyKey) await ledger.failed(idempotencyKey, String((err as Error)?.message ?? err));
            throw err;
          }
        };
        await (opts.trace
          ? opts.trace.run(requestId, runJob, { name: job.name, id: job.id, attempt: job.attemptsMade + 1 })
          : runJob());
      },
      {
        connection: workerConnection,
        prefix,
        concurrency: opts.concurrency ?? 4,
        ...(opts.lockMs ? { lockDuration: opts.lockMs, stalledInterval: opts.lockMs } : {}),
      },
    );
    workerConnection.on('error', (err) => log('worker redis error', err));
    worker.on('error', (err) => log('worker error', err));
    worker.on('failed', (job, err) => {
      ended(job?.id);
      log(`job ${job?.name} attempt ${job?.attemptsMade} failed`, err);
    });
    worker.on('completed', (job) => ended(job.id));
  }

  return {
    worker,
    /** Jobs by state (the job_queue_depth gauge of /metrics). */
    depth: () => queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    async enqueue(jobName, payload, o = {}) {
      const def = jobs[jobName];
      if (!def) throw new Error(`no processor for job ${jobName}`);
      def.schema.parse(payload);
      const jobId = o.idempotencyKey ? jobIdOf(o.idempotencyKey) : undefined;
      const requestId = opts.trace?.current();
      await queue.add(
        jobName,
        { payload, idempotencyKey: o.idempotencyKey, ...(requestId ? { requestId } : {}) } satisfies Envelope,
        {
          ...(jobId ? { jobId } : {}),
          attempts: def.attempts ?? 3,
          backoff: { type: 'exponential', delay: def.backoffMs ?? 500 },
          removeOnComplete: { count: 1000 },
          removeOnFail: { count: 5000 },
        },
      );
    },
    async drain() {
      for (;;) {
        const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        if (!Object.values(c).some((n) => n > 0)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      const closeTimeoutMs = opts.closeTimeoutMs ?? 8_000;
      if (worker) {
        // BullMQ's graceful close waits for its blocking client's 'end', which a client reconnecting to an
        // unreachable Redis never sends (taskforcesh/bullmq#4656, open): the close never returned and its
        // lock timer kept the process alive. So: no new jobs (pause without waiting), this worker's running
        // jobs end within the bound (tracked here by BullMQ's events), then BullMQ's forced close, which
        // drops its connections without waiting. A job still running after the bound is cut short and
        // handed out again as stalled once its lock lapses (the ledger lets it take over).
        await worker.pause(true);
        if (!(await settlesWithin(Promise.all([...running.values()].map((r) => r.settled)), closeTimeoutMs)))
          log(`queue worker: ${running.size} job(s) still running after ${closeTimeoutMs} ms, closing anyway`);
        await worker.close(true).catch((err) => log('queue worker close failed', err));
      }
      if (!(await settlesWithin(queue.close(), closeTimeoutMs)))
        log(`queue did not close within ${closeTimeoutMs} ms (Redis unreachable?)`);
      queueConnection.disconnect();
      workerConnection?.disconnect();
    },
  };
}

/** Whether `promise` settled (either way) within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}
