import crypto from 'node:crypto';
import type { z } from 'zod';

/** Keeps the outcome of jobs that carry an idempotency key, so no retry or second worker repeats one. */
export interface JobLedger {
  /**
   * 'run' when this caller should run the job now, 'skip' when it is done or running elsewhere.
   * `takeOver`: the queue knows the runner of a 'running' key is dead (BullMQ handed the job out again
   * after its lock expired: the worker was killed mid-job), so that key is taken instead of skipped.
   */
  begin(key: string, name: string, opts?: { takeOver?: boolean }): Promise<'run' | 'skip'>;
  done(key: string): Promise<void>;
  failed(key: string, error: string): Promise<void>;
}

/** The deterministic job id of an idempotency key: BullMQ keeps one job per id; callers can answer it. */
export function jobIdOf(idempotencyKey: string): string {
  return crypto.createHash('sha256').update(idempotencyKey).digest('hex');
}

export type JobDefinition<S extends z.ZodType, D> = {
  schema: S;
  process(payload: z.output<S>, deps: D): Promise<void>;
  /** Attempts before giving up (default 3), with exponential backoff from `backoffMs`. */
  attempts?: number;
  backoffMs?: number;
};

export interface JobQueue<Names extends string = string> {
  enqueue(name: Names, payload: unknown, opts?: { idempotencyKey?: string }): Promise<void>;
  /** Resolves when every job enqueued so far has finished (tests, shutdown). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The in-process runner used by the one-command default: the same processors that run under BullMQ
 * when REDIS_URL is set. A payload that fails its schema is refused at enqueue time (it would never
 * succeed); a processor that throws is retried with backoff; a job with an idempotency key runs once.
 */
export function inProcessQueue<D, J extends Record<string, JobDefinition<z.ZodType, D>>>(
  jobs: J,
  deps: D,
  ledger: JobLedger,
  log: (msg: string, err?: unknown) => void = () => undefined,
): JobQueue<Extract<keyof J, string>> {
  const running = new Set<Promise<void>>();
  let closed = false;

  async function run(name: string, payload: unknown, key: string | undefined) {
    const job = jobs[name]!;
    const attempts = job.attempts ?? 3;
    if (key && (await ledger.begin(key, name)) === 'skip') return;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await job.process(payload, deps);
        if (key) await ledger.done(key);
        return;
      } catch (err) {
        log(`job ${name} attempt ${attempt}/${attempts} failed`, err);
        if (attempt === attempts) {
          if (key) await ledger.failed(key, String((err as Error)?.message ?? err));
          return;
        }
        await new Promise((r) => setTimeout(r, (job.backoffMs ?? 500) * 2 ** (attempt - 1)));
      }
    }
  }

  return {
    async enqueue(name, payload, opts = {}) {
      if (closed) throw new Error('queue is closed');
      const job = jobs[name];
      if (!job) throw new Error(`no processor for job ${name}`);
      const parsed = job.schema.parse(payload);
      const p = run(name, parsed, opts.idempotencyKey).finally(() => running.delete(p));
      running.add(p);
    },
    async drain() {
      while (running.size) await Promise.allSettled([...running]);
    },
    async close() {
      closed = true;
      await this.drain();
    },
  };
}
