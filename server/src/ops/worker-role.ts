import crypto from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { jobs, pollNudger, redisPollState, redisWatchRegistry, startPollers, type JobName } from '@fleet/workers';
import type { SubscriptionTopic } from '@fleet/shared';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { checkFleetHealth, startReportSchedules } from '../jobs/index.ts';
import { healthRoutes } from '../health/index.ts';
import { alertsFeatureOf, type AlertsOptions } from '../alerts/index.ts';
import { startOverdueSchedule } from '../billing/index.ts';
import { outboxQueue, type Mailer } from '../mail/index.ts';
import { deviceApiGetter, sessionHub } from '../realtime/index.ts';
import { opsMiddleware } from './http.ts';
import { jobQueueFor } from './job-queue.ts';
import { outboxTrace } from './logger.ts';
import type { ProcessMetrics } from './metrics.ts';
import type { ShutdownStep } from './shutdown.ts';
import { everyPeriod, tickClaimer } from './tick-once.ts';

/**
 * `npm run start:worker`: everything that is not an answer to a browser. The pollers (subjects come from
 * the watch registry the servers' sockets fill in Redis; subjects are split into shards leased to the
 * workers (poll-state.ts), so N workers poll each subject once per period; a card is read only while
 * watched, in filtered list calls; changes go out through the Socket.IO Redis emitter to whichever
 * server holds the sockets), the BullMQ processors (mails, reports), the outbox relay, and the
 * scheduled ticks: fleet health every minute, the daily and weekly summaries, the billing overdue check.
 * Each tick runs on one worker (tick-once.ts; the overdue check through its job-ledger key).
 *
 * Its HTTP port answers /healthz, /readyz and /metrics only.
 */
export async function startWorkerRole(opts: {
  config: Config & { redisUrl: string };
  database: Database;
  mailer: Mailer;
  logger: Logger;
  log: (m: string, e?: unknown) => void;
  metrics: ProcessMetrics;
  redisPrefix: string;
  deviceApiUrl: string;
  /** The drain switch of the shutdown (shutdown.ts): /readyz 503 while the worker finishes its jobs. */
  draining?: RequestHandler;
  env?: NodeJS.ProcessEnv;
}) {
  const { config, database, log, metrics } = opts;
  const env = opts.env ?? process.env;
  const db = database.db;

  const { queue: jobQueue, depth } = jobQueueFor({ config, database, mailer: opts.mailer, runWorker: true, redisPrefix: opts.redisPrefix, log, concurrency: Number(env.WORKER_CONCURRENCY ?? 4), env });
  if (depth) metrics.watchQueue(depth);
  const queue = outboxQueue(db, jobQueue, {
    validate: (name, payload) => {
      const job = jobs[name as JobName];
      if (!job) throw new Error(`no processor for job ${name}`);
      job.schema.parse(payload);
    },
    trace: outboxTrace,
    log,
  });
  const sessions = sessionHub({ redisUrl: config.redisUrl, redisPrefix: opts.redisPrefix, log });

  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3, keyPrefix: opts.redisPrefix });
  redis.on('error', (err) => log('worker redis error', err));
  const emitterRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3 });
  emitterRedis.on('error', (err) => log('worker emitter redis error', err));
  // The adapter's channel (realtime.ts): every server's sockets in the room get the event.
  const emitter = new Emitter(emitterRedis, { key: `${opts.redisPrefix}socket.io` });
  const workerId = `worker-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const registry = redisWatchRegistry(redis, workerId);
  // Portal writes on the servers publish the devices they changed; the worker owning a subject polls it now.
  const nudges = pollNudger({ redisUrl: config.redisUrl, redisPrefix: opts.redisPrefix, log });
  const pollers = startPollers({
    registry,
    state: redisPollState(redis, { processId: workerId }),
    nudges: nudges.source,
    get: deviceApiGetter(opts.deviceApiUrl, config.serviceToken),
    emit: (room, event, payload) => {
      (emitter.to(room).emit as (event: string, payload: unknown) => boolean)(event, payload);
    },
    countPoll: metrics.countPoll,
    log,
    ...(env.POLL_TICK_MS ? { tickMs: Number(env.POLL_TICK_MS) } : {}),
    ...(env.POLL_PERIODS ? { periods: pollPeriods(env.POLL_PERIODS) } : {}),
  });

  const claim = tickClaimer(redis, { onClaimed: (tick, slot) => opts.logger.info({ tick, slot }, `tick ${tick} runs here`) });
  const fleetHealthEveryMs = Number(env.FLEET_HEALTH_INTERVAL_MS ?? 60_000);
  // On the period's boundaries, claimed per period: once per period across the workers, whenever each started.
  const stopFleetHealth = everyPeriod(fleetHealthEveryMs, async (slot) => {
    try {
      if (!(await claim('fleet-health', slot, fleetHealthEveryMs))) return;
      const r = await checkFleetHealth(db);
      if (r.wentOffline.length || r.expiredChanges) log(`fleet health: ${r.wentOffline.length} offline, ${r.expiredChanges} pending changes expired`);
    } catch (err) {
      log('fleet health check failed', err);
    }
  });
  const stopReportSchedules = startReportSchedules(db, queue, log, {
    claim,
    ...(env.REPORT_DAILY_CRON ? { daily: env.REPORT_DAILY_CRON } : {}),
    ...(env.REPORT_WEEKLY_CRON ? { weekly: env.REPORT_WEEKLY_CRON } : {}),
  });
  const stopOverdueSchedule = startOverdueSchedule({ db, config, now: () => new Date(), sessions, log });
  // Alerts: every worker dispatches due notifications (claimed rows, never twice); the fleet's evaluation
  // and escalation run once a minute on the worker that claims the minute.
  const alerts = alertsFeatureOf(db, config, {
    mailQueue: queue as AlertsOptions['mailQueue'],
    emitToUser: (userId, payload) => sessions.emitToUser(userId, 'incident:notified', payload),
    log,
  });
  const stopAlerts = alerts.start();
  const stopAlertsMinute = everyPeriod(fleetHealthEveryMs, async (slot) => {
    try {
      if (!(await claim('alerts', slot, fleetHealthEveryMs))) return;
      await alerts.engine.evaluateFleet();
      await alerts.engine.escalate();
    } catch (err) {
      log('alerts: the minute job failed', err);
    }
  });

  const app = express();
  app.disable('x-powered-by');
  app.use(opsMiddleware({ logger: opts.logger, metrics, ...(opts.draining ? { draining: opts.draining } : {}) }));
  app.use(healthRoutes({ database: database.ping, redis: async () => (await redis.ping()) === 'PONG' }));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.text());
  });
  app.use((_req, res) => {
    res.status(404).json({ detail: 'A worker answers /healthz, /readyz and /metrics only.' });
  });

  const steps: ShutdownStep[] = [
    ['schedules', () => {
      stopFleetHealth();
      stopReportSchedules();
      stopOverdueSchedule();
      stopAlertsMinute();
    }],
    ['alerts', () => stopAlerts()],
    ['pollers', async () => {
      await pollers.stop();
      await nudges.close();
    }],
    // BullMQ's worker.close() waits for its active jobs; the outbox relay stops after them.
    ['queue', () => queue.close()],
    ['sessions', () => sessions.close()],
    ['watch registry', () => registry.close()],
    ['redis', () => {
      redis.disconnect();
      emitterRedis.disconnect();
    }],
  ];
  return { app, steps };
}

/** POLL_PERIODS=device=10000,simLog=15000: the spec's periods, changed (tests shorten them). */
export function pollPeriods(text: string): Partial<Record<SubscriptionTopic, number>> {
  const out: Partial<Record<SubscriptionTopic, number>> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [topic, ms] = part.split('=');
    if (!['device', 'deviceCards', 'simLog', 'overview'].includes(topic!) || !(Number(ms) >= 100)) throw new Error(`POLL_PERIODS: '${part}' is not topic=milliseconds (100 or more)`);
    out[topic as SubscriptionTopic] = Number(ms);
  }
  return out;
}
