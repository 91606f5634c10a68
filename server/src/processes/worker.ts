import crypto from 'node:crypto';
import http from 'node:http';
import express from 'express';
import { Emitter } from '@socket.io/redis-emitter';
import type { Logger } from 'pino';
import { createRedis, jobs, pollNudger, redisPollState, redisWatchRegistry, startPollers, type JobName } from '@fleet/workers';
import { realClock, type SubscriptionTopic } from '@fleet/shared';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { healthRoutes } from '../health/index.ts';
import { outboxQueue, type Mailer } from '../mail/index.ts';
import { deviceApiGetter, sessionHub } from '../realtime/index.ts';
import { describeAddress, opsMiddleware } from '../ops/http.ts';
import { jobQueueFor } from '../ops/job-queue.ts';
import { outboxTrace } from '../ops/logger.ts';
import type { ProcessMetrics } from '../ops/metrics.ts';
import type { gracefulShutdown } from '../ops/shutdown.ts';
import { everyPeriod, tickClaimer } from '../ops/tick-once.ts';
import { alertsFeatureOf, type AlertsOptions } from '../alerts/index.ts';
import { startSchedules } from './schedules.ts';

/**
 * The worker process, `npm run start:worker`: everything that is not an answer to a browser. The pollers (subjects come from
 * the watch registry the servers' sockets fill in Redis; subjects are split into shards leased to the
 * workers (poll-state.ts), so N workers poll each subject once per period; a card is read only while
 * watched, in filtered list calls; changes go out through the Socket.IO Redis emitter to whichever
 * server holds the sockets), the BullMQ processors (mails, reports), the outbox relay, and the
 * scheduled ticks (schedules.ts): fleet health every minute, the daily and weekly summaries, the billing
 * overdue check. Each tick runs on one worker (ops/tick-once.ts; the overdue check through its job-ledger key).
 *
 * Its HTTP port answers /healthz, /readyz and /metrics only.
 */
export async function startWorker(opts: {
  config: Config & { redisUrl: string };
  database: Database;
  mailer: Mailer;
  logger: Logger;
  log: (m: string, e?: unknown) => void;
  metrics: ProcessMetrics;
  redisPrefix: string;
  deviceApiUrl: string;
  /** Drains (/readyz 503 while the worker finishes its jobs) and stops the worker (ops/shutdown.ts). */
  shutdown: ReturnType<typeof gracefulShutdown>;
  env?: NodeJS.ProcessEnv;
}): Promise<http.Server> {
  const { config, database, log, metrics } = opts;
  const env = opts.env ?? process.env;
  const db = database.db;

  const { queue: jobQueue, depth } = jobQueueFor({
    config,
    database,
    mailer: opts.mailer,
    runWorker: true,
    // The queue's prefix as the portal names it (bullPrefixOf(REDIS_PREFIX), 'fleet-bull' when unset): the
    // defaulted opts.redisPrefix ('fleet:') would make 'fleet:bull', a queue no portal adds to.
    ...(config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    log,
    concurrency: Number(env.WORKER_CONCURRENCY ?? 4),
    env,
  });
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

  const redis = createRedis(config.redisUrl, 'command', { keyPrefix: opts.redisPrefix });
  redis.on('error', (err) => log('worker redis error', err));
  const emitterRedis = createRedis(config.redisUrl, 'command');
  emitterRedis.on('error', (err) => log('worker emitter redis error', err));
  // The adapter's channel (realtime.ts): every server's sockets in the room get the event.
  const emitter = new Emitter(emitterRedis, { key: `${opts.redisPrefix}socket.io` });
  const workerId = `worker-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const registry = redisWatchRegistry(redis, workerId);
  // Portal writes on the servers publish the devices they changed; the worker owning a subject polls it now.
  const nudges = pollNudger({ redisUrl: config.redisUrl, redisPrefix: opts.redisPrefix, log });
  // Devices fleet health marks offline reach the servers' pin deltas (realtime/pin-deltas.ts) by this channel.
  const pinChanges = pollNudger({
    redisUrl: config.redisUrl,
    ...(config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    channel: 'pins:changed',
    log,
  });
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
  const stopSchedules = startSchedules(
    {
      db,
      config,
      now: () => realClock.now(),
      sessions,
      log,
      queue,
      devicesChanged: (serials) => {
        nudges.devicesChanged(serials);
        pinChanges.devicesChanged(serials);
      },
    },
    {
      claim,
      fleetHealthEveryMs: Number(env.FLEET_HEALTH_INTERVAL_MS ?? 60_000),
      ...(env.REPORT_DAILY_CRON ? { daily: env.REPORT_DAILY_CRON } : {}),
      ...(env.REPORT_WEEKLY_CRON ? { weekly: env.REPORT_WEEKLY_CRON } : {}),
    },
  );

  // Alerts: every worker dispatches due notifications (claimed rows, never twice); the fleet's evaluation
  // and escalation run once a minute on the worker that claims the minute.
  const alerts = alertsFeatureOf(db, config, {
    mailQueue: queue as AlertsOptions['mailQueue'],
    emitToUser: (userId, payload) => sessions.emitToUser(userId, 'incident:notified', payload),
    log,
  });
  const stopAlerts = alerts.start();
  const alertsEveryMs = Number(env.FLEET_HEALTH_INTERVAL_MS ?? 60_000);
  const stopAlertsMinute = everyPeriod(alertsEveryMs, async (slot) => {
    try {
      if (!(await claim('alerts', slot, alertsEveryMs))) return;
      await alerts.engine.evaluateFleet();
      await alerts.engine.escalate();
    } catch (err) {
      log('alerts: the minute job failed', err);
    }
  });

  const app = express();
  app.disable('x-powered-by');
  app.use(opsMiddleware({ logger: opts.logger, metrics, draining: opts.shutdown.middleware }));
  app.use(healthRoutes({ database: database.ping, redis: async () => (await redis.ping()) === 'PONG' }));
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.text());
  });
  app.use((_req, res) => {
    res.status(404).json({ detail: 'A worker answers /healthz, /readyz and /metrics only.' });
  });

  const server = http.createServer(app);
  opts.shutdown.attach(server);
  opts.shutdown.add(
    [
      'schedules',
      () => {
        stopSchedules();
        stopAlertsMinute();
      },
    ],
    ['alerts', () => stopAlerts()],
    [
      'pollers',
      async () => {
        await pollers.stop();
        await nudges.close();
        await pinChanges.close();
      },
    ],
    // BullMQ's worker.close() waits for its active jobs; the outbox relay stops after them.
    ['queue', () => queue.close()],
    ['sessions', () => sessions.close()],
    ['watch registry', () => registry.close()],
    [
      'redis',
      () => {
        redis.disconnect();
        emitterRedis.disconnect();
      },
    ],
    ['database', () => database.close()],
  );
  server.listen(config.port, config.host, () => log(`worker: health and metrics on ${describeAddress(server)}`));
  return server;
}

/** POLL_PERIODS=device=10000,simLog=15000: the spec's periods, changed (tests shorten them). */
export function pollPeriods(text: string): Partial<Record<SubscriptionTopic, number>> {
  const out: Partial<Record<SubscriptionTopic, number>> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [topic, ms] = part.split('=');
    if (!['device', 'deviceCards', 'simLog', 'overview'].includes(topic!) || !(Number(ms) >= 100))
      throw new Error(`POLL_PERIODS: '${part}' is not topic=milliseconds (100 or more)`);
    out[topic as SubscriptionTopic] = Number(ms);
  }
  return out;
}
