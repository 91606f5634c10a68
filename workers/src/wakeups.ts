import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from './redis.ts';

/**
 * Wake-ups: "run this processor at that time", where what is due lives elsewhere (rows in PostgreSQL) and
 * the wake-up only makes a process look at the moment it falls due. Used by alerts (server/src/alerts,
 * issue 43: "Delays and escalations are queued jobs: BullMQ delayed jobs in the scaled run, and the same
 * processors in process by default").
 *
 * A wake-up lost (Redis restarted empty, a process killed with its timers) costs latency, never work: the
 * owner keeps a slower poll as its safety net, and re-arms its wake-ups from its rows when it starts and when
 * Redis comes back (`rearm`).
 *
 * Two implementations with the same processors: timers in one process (the one-command run, no Redis), and
 * BullMQ delayed jobs on REDIS_URL, where any process may add one and every process that `start`ed takes
 * them. A job id per key and due time makes a second request for the same wake-up a no-op while the first
 * is waiting.
 */
/** A wake-up: the processor `kind` at `at`; `key` names what it is for (with `at`, its id). */
export type Wakeup = { kind: string; at: Date; key: string };
/** What a wake-up runs, by its kind. */
type WakeRunner = (kind: string) => Promise<void>;

export type Wakeups = {
  /** Asks for `kind` to run at `at` (never throws: a wake-up that cannot be set is logged; the safety net remains). */
  schedule(w: Wakeup, now: Date): void;
  /**
   * Takes the wake-ups in this process with `run`; `rearm` sets the wake-ups of what the rows say is due (at
   * the start, and again when Redis is back after a restart). Answers the stop.
   */
  start(run: WakeRunner, rearm: () => Promise<void>): () => Promise<void>;
  /** Closes what the wake-ups hold (BullMQ's queue and its connection). */
  close(): Promise<void>;
};

/** The job id of a wake-up: its kind and due time (BullMQ ids may not contain ':'). */
const wakeupId = (w: Wakeup) => `wake-${w.key.replace(/[^A-Za-z0-9_-]/g, '-')}-${w.at.getTime()}`;

/** Waits until `at` (ms since the epoch) when a delayed job fires a little early (the rows compare with `now`). */
async function notBefore(at: number) {
  const wait = at - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 2));
}

/** setTimeout's longest delay (about 24.8 days): a later wake-up is left to the minute job and the next re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** In-process wake-ups (the one-command run without Redis): one timer per wake-up id, in this process only. */
export function timerWakeups(log: (m: string, e?: unknown) => void): Wakeups {
  const timers = new Map<string, NodeJS.Timeout>();
  let runner: WakeRunner | undefined;
  return {
    schedule(w, now) {
      if (!runner) return; // no loop here: the process that runs it re-arms from the rows when it starts
      const id = wakeupId(w);
      const delay = Math.max(0, w.at.getTime() - now.getTime());
      if (timers.has(id) || delay > MAX_TIMER_MS) return;
      const run = runner;
      // +2 ms: a timer may fire a millisecond before Date.now() reaches its time, and the rows compare with now.
      const timer = setTimeout(() => {
        timers.delete(id);
        run(w.kind).catch((err) => log(`wake-up ${id} failed`, err));
      }, delay + 2);
      timer.unref();
      timers.set(id, timer);
    },
    start(run, rearm) {
      runner = run;
      void rearm().catch((err) => log('re-arming the wake-ups failed', err));
      return async () => {
        runner = undefined;
        for (const t of timers.values()) clearTimeout(t);
        timers.clear();
      };
    },
    async close() {},
  };
}

/**
 * BullMQ wake-ups (REDIS_URL): a delayed job per wake-up on the queue `queueName` (under the process's BullMQ
 * prefix), named by its kind, without data. Finished jobs are removed, so a wake-up of the same key and time
 * can be added again once it ran.
 */
export function bullmqWakeups(opts: {
  redisUrl: string;
  prefix: string;
  queueName: string;
  log: (m: string, e?: unknown) => void;
}): Wakeups {
  const name = opts.queueName;
  let connection: Redis | undefined;
  let queue: Queue | undefined;
  const queueOf = () => {
    if (!queue) {
      connection = createRedis(opts.redisUrl, 'blocking');
      connection.on('error', (err) => opts.log(`${name} redis error`, err));
      queue = new Queue(name, { connection, prefix: opts.prefix });
      queue.on('error', (err) => opts.log(`${name} queue error`, err));
    }
    return { queue, connection: connection! };
  };
  return {
    schedule(w, now) {
      const delay = Math.max(0, w.at.getTime() - now.getTime());
      queueOf()
        .queue.add(w.kind, {}, { jobId: wakeupId(w), delay, removeOnComplete: true, removeOnFail: true, attempts: 1 })
        .catch((err) => opts.log(`${name}: wake-up ${wakeupId(w)} not queued (the safety net remains)`, err));
    },
    start(run, rearm) {
      const { connection: queueConnection } = queueOf();
      const rearmNow = () => void rearm().catch((err) => opts.log('re-arming the wake-ups failed', err));
      // 'ready' after a reconnect: Redis may have come back empty (a restart without persistence).
      let connected = queueConnection.status === 'ready';
      const onReady = () => {
        if (connected) return;
        connected = true;
        rearmNow();
      };
      const onLost = () => (connected = false);
      queueConnection.on('ready', onReady);
      queueConnection.on('close', onLost);
      const workerConnection = createRedis(opts.redisUrl, 'blocking');
      workerConnection.on('error', (err) => opts.log(`${name} worker redis error`, err));
      const worker = new Worker(
        name,
        async (job) => {
          await notBefore(job.timestamp + (job.opts.delay ?? 0));
          await run(job.name);
        },
        { connection: workerConnection, prefix: opts.prefix, concurrency: 2 },
      );
      worker.on('error', (err) => opts.log(`${name} worker error`, err));
      worker.on('failed', (job, err) => opts.log(`${name}: wake-up ${job?.id} failed`, err));
      rearmNow();
      return async () => {
        queueConnection.off('ready', onReady);
        queueConnection.off('close', onLost);
        await worker.close().catch(() => undefined);
        workerConnection.disconnect();
      };
    },
    async close() {
      await queue?.close().catch(() => undefined);
      connection?.disconnect();
      queue = undefined;
      connection = undefined;
    },
  };
}
