import http from 'node:http';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { pollNudger } from '@fleet/workers';
import { alertsFeatureOf } from '../alerts/index.ts';
import { deviceGatewayRouter } from '../gateway/index.ts';
import { healthRoutes } from '../health/index.ts';
import { compressAnswers } from '../lib/compression.ts';
import { errorHandler, notFoundHandler } from '../lib/errors.ts';
import { securityHeaders } from '../lib/security-headers.ts';
import { describeAddress, opsMiddleware } from '../ops/http.ts';
import type { ProcessMetrics } from '../ops/metrics.ts';
import type { gracefulShutdown } from '../ops/shutdown.ts';

/**
 * The gateway process, `npm run start:gateway`: the device gateway alone, the devices' side of a scaled deployment. It
 * answers POST /device/v1/checkin and GET /device/v1/config (the same router the portal mounts, so the
 * one-command run keeps serving devices itself), /healthz, /readyz and /metrics; every other path is a
 * 404. The proxy sends /device/ here (deploy/nginx.conf).
 *
 * Why a process of its own: a check-in is a device waiting with its radio on, and on a portal server it
 * queued behind the browsers' answers on the one event loop. With 50 browsers reading the fleet's big
 * answers (the REST round of `npm run bench`), check-ins at 200/s took p99 110-180 ms on the portal's
 * process against 15-27 ms alone (PERFORMANCE.md); in their own process the kernel shares the CPU
 * between the two instead of a queue of JavaScript work.
 *
 * It needs the shared PostgreSQL and SECRET_KEY (device secrets are stored as keyed hashes); not Redis:
 * a check-in only writes the device's rows, and the pollers see the change at their next poll as before.
 */
export function createGatewayApp(deps: {
  config: Pick<
    Config,
    'secretKey' | 'checkinSynchronousCommit' | 'publicUrl' | 'mapStyleUrl' | 'googleMapsApiKey' | 'trustProxy'
  >;
  database: Pick<Database, 'db' | 'ping'>;
  now?: () => Date;
  log: (msg: string, err?: unknown) => void;
  /** Operations middleware (ops/http.ts: request id, access log, latency, drain), first. */
  ops?: RequestHandler[];
  /** GET /metrics (the process's ProcessMetrics, as the worker serves them). */
  metrics?: Pick<ProcessMetrics, 'text' | 'contentType'>;
  /** Told each checked-in serial after its answer (the alerts' warning codes; main.ts gives it the alerts engine). */
  checkedIn?: (serial: string) => void;
}) {
  const app = express();
  app.disable('x-powered-by');
  if (deps.ops?.length) app.use(...deps.ops);
  app.set('trust proxy', deps.config.trustProxy);
  app.set('etag', false);
  app.use(securityHeaders(deps.config));
  app.use(compressAnswers());
  app.use(healthRoutes({ database: deps.database.ping }));
  app.use(
    '/device/v1',
    deviceGatewayRouter({
      db: deps.database.db,
      config: deps.config,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.checkedIn ? { checkedIn: deps.checkedIn } : {}),
    }).router,
  );
  const metrics = deps.metrics;
  if (metrics) app.get('/metrics', async (_req, res) => void res.type(metrics.contentType).send(await metrics.text()));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}

/** Starts the gateway process: its app on the configured port, drained and closed by the shutdown. */
export function startGateway(opts: {
  config: Config;
  database: Parameters<typeof createGatewayApp>[0]['database'] & { close(): unknown };
  logger: Logger;
  log: (m: string, e?: unknown) => void;
  metrics: ProcessMetrics;
  shutdown: ReturnType<typeof gracefulShutdown>;
}): http.Server {
  const { config, database, logger, log, metrics, shutdown } = opts;
  // The gateway records the alerts its check-ins raise (incidents and notification rows); the servers and
  // workers dispatch them (their loops claim due rows every second), so it needs no mail queue or sockets.
  // With REDIS_URL it adds the wake-ups of what falls due later (an incident's escalation at M).
  const alerts = alertsFeatureOf(
    database.db,
    { ...config, alerts: { ...config.alerts, vapid: undefined } },
    {
      mailQueue: {
        enqueue: async () => {
          throw new Error('the gateway role sends nothing');
        },
      },
      emitToUser: () => undefined,
      log,
    },
  );
  // The portal's prefix (config.redisPrefix, as createApp's listener has it): without it a REDIS_PREFIX set
  // for the run sent the gateway's changes to a channel no server listened to.
  const pinChanges = pollNudger({
    redisUrl: config.redisUrl,
    ...(config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    channel: 'pins:changed',
    log,
  });
  const app = createGatewayApp({
    config,
    database,
    log,
    ops: opsMiddleware({ logger, metrics, draining: shutdown.middleware, quietSuccess: false }),
    metrics,
    checkedIn: (serial) => {
      alerts.engine.deviceCheckedIn(serial);
      // The servers' pin deltas (realtime/pin-deltas.ts) hear the check-in through Redis.
      pinChanges.devicesChanged([serial]);
    },
  });
  const server = http.createServer(app);
  shutdown.attach(server);
  shutdown.add(
    [
      'alerts',
      async () => {
        await alerts.engine.flushCheckins();
        await alerts.close();
      },
    ],
    ['pin changes', () => pinChanges.close()],
    ['database', () => database.close()],
  );
  server.listen(config.port, config.host, () => log(`gateway: device check-ins on ${describeAddress(server)}`));
  return server;
}
