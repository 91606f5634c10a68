import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { authDocs, authLimits, authRepository, authRoutes, authService, requireAuth } from './auth/index.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';
import { devicesRoutes } from './devices/index.ts';
import { batchesRoutes } from './batches/index.ts';
import { sitesRoutes } from './sites/index.ts';
import { overviewRoutes } from './overview/index.ts';
import { brandsRoutes } from './brands/index.ts';
import { usersRoutes } from './users/index.ts';
import { placesRoutes } from './places/index.ts';
import { deviceGatewayRouter, gatewayAdminRoutes } from './gateway/index.ts';
import { telemetryRoutes } from './telemetry/index.ts';
import { reportRenderer, reportsRoutes } from './reports/index.ts';
import { billingRoutes } from './billing/index.ts';
import { healthRoutes } from './health/index.ts';
import { errorHandler, notFoundHandler } from './lib/errors.ts';
import { appRedis } from './lib/app-redis.ts';
import { type Mailer, type OutboxOptions, outboxQueue } from './mail/index.ts';
import { inlinePageCsp, securityHeaders } from './lib/security-headers.ts';
import { compressAnswers } from './lib/compression.ts';
import { staticClient } from './lib/static-client.ts';
import { aggregateCache, invalidateAfterWrites, type AggregateCache } from './lib/aggregate-cache.ts';
import { bullmqQueue, inProcessQueue, jobs, pollNudger, type JobDeps, type JobName, type JobQueue, type PollNudger } from '@fleet/workers';
import type { AppContext } from './context.ts';
import { dbJobLedger } from './jobs/index.ts';
import { outboxTrace } from './ops/logger.ts';
import { buildOpenApi, docsPage, type RouteDoc, type Routes } from './openapi/route-docs.ts';
import { sessionHub, type SessionHub } from './realtime/index.ts';
import { deviceAccessHub, type DeviceAccessHub, partnersRoutes } from './partners/index.ts';
import { maintenanceRoutes, maintenanceServiceOf } from './maintenance/index.ts';
import { alertsFeatureOf, type AlertsOptions } from './alerts/index.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Directory of the built client (served with an SPA fallback) when it exists. */
  clientDir?: string;
  /** The job queue; by default the in-process runner over the same processors BullMQ runs. */
  queue?: JobQueue<JobName>;
  now?: () => Date;
  log?: (msg: string, err?: unknown) => void;
  /** Prometheus text for GET /metrics (server/src/ops/metrics.ts in main.ts; the pollers' upstream_polls_total in tests). */
  metrics?: () => string | Promise<string>;
  /** Operations middleware mounted before everything else (ops/http.ts: request id, access log, latency, drain). */
  ops?: RequestHandler[];
  /** Ends sessions' sockets; by default one for this process (its push server attaches to it, see realtime.ts). */
  sessions?: SessionHub;
  /** Outbox relay timings (tests shorten them). */
  outbox?: Partial<Pick<OutboxOptions, 'intervalMs' | 'resendAfterMs' | 'enqueueTimeoutMs'>>;
  /** Prefix of the app's Redis keys (auth counters); tests give each run its own. */
  redisPrefix?: string;
  /** Takes removed exclusive devices out of a partner's sockets; by default one for this process (attached like sessions). */
  deviceAccess?: DeviceAccessHub;
  /** Tells the pollers which devices a portal write changed; by default one for this process (its pollers listen to `app.nudges.source`; with Redis, every process's). */
  nudges?: PollNudger;
  /** Fleet aggregates cached per scope (lib/aggregate-cache.ts); by default one for this process, emptied across processes through Redis. */
  aggregates?: AggregateCache;
  /** Alerts' parts a test replaces (an SMS provider, a channel, the push agent); the loop starts in main.ts (`app.alerts.start`). */
  alerts?: Pick<AlertsOptions, 'sms' | 'channels' | 'pushAgent'>;
};

/** Feature routers mounted under /api/v1, each with its OpenAPI declarations. */
const features: ((ctx: AppContext) => Routes)[] = [devicesRoutes, sitesRoutes, overviewRoutes, placesRoutes, brandsRoutes, usersRoutes, batchesRoutes, gatewayAdminRoutes, telemetryRoutes, reportsRoutes, billingRoutes, partnersRoutes, maintenanceRoutes];

/** Builds the HTTP app from its dependencies without listening (supertest drives it directly). */
export function createApp(deps: AppDeps) {
  const { config, database } = deps;
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ''));
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const jobDeps: JobDeps = { mailer: deps.mailer, reports: reportRenderer(database.db, { now: deps.now }) };
  // BullMQ on Redis when configured (any number of workers share it), else the in-process runner.
  const jobQueue =
    deps.queue ??
    (config.redisUrl
      ? bullmqQueue(jobs, jobDeps, dbJobLedger(database.db), { redisUrl: config.redisUrl, log })
      : inProcessQueue(jobs, jobDeps, dbJobLedger(database.db), log));
  // Jobs with an idempotency key (every mail) are recorded in the outbox table before the request is
  // answered and relayed to the queue from there: a mail answered 202 survives Redis going away.
  const queue = outboxQueue(database.db, jobQueue, {
    validate: (name, payload) => {
      const job = jobs[name as JobName];
      if (!job) throw new Error(`no processor for job ${name}`);
      job.schema.parse(payload);
    },
    trace: outboxTrace,
    log,
    ...deps.outbox,
  });
  const sessions = deps.sessions ?? sessionHub({ redisUrl: config.redisUrl, log });
  const deviceAccess = deps.deviceAccess ?? deviceAccessHub({ redisUrl: config.redisUrl, log });
  const nudges = deps.nudges ?? pollNudger({ redisUrl: config.redisUrl, ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}), log });
  const aggregates = deps.aggregates ?? aggregateCache({ redisUrl: config.redisUrl, ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}), database: database.db, log });
  const ctx: AppContext = { db: database.db, config, mailer: deps.mailer, queue, uploadsDir, now: deps.now ?? (() => new Date()), sessions, deviceAccess, log, pollNudge: nudges, aggregates };
  // One Redis client for the auth counters and /readyz (fails fast while Redis is down; limits.ts).
  const redis = appRedis(config.redisUrl, log);
  // Alerts (issue 43): check-ins tell it their serial after their answer; its loop is started by main.ts.
  const alerts = alertsFeatureOf(database.db, config, {
    now: ctx.now,
    mailQueue: queue as AlertsOptions['mailQueue'],
    emitToUser: (userId, payload) => sessions.emitToUser(userId, 'incident:notified', payload),
    log,
    ...deps.alerts,
  });
  const app = express();
  app.disable('x-powered-by');
  // --- operations (ops/http.ts, owned by the operations work): request id, JSON access log, metrics, drain.
  if (deps.ops?.length) app.use(...deps.ops);
  // --- end operations
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // CSP, frame-ancestors/X-Frame-Options, nosniff, Referrer-Policy on every answer (lib/security-headers.ts, SECURITY.md).
  app.use(securityHeaders(config));
  // Every text answer brotli/gzip-compressed (lib/compression.ts: why Socket.IO and downloads are safe).
  app.use(compressAnswers());

  const auth = authService({
    repo: authRepository(database.db),
    mailer: deps.mailer,
    sessionTtl: config.sessionTtl,
    limits: authLimits({ login: config.loginLimit, redis: redis?.client, prefix: `${deps.redisPrefix ?? 'fleet:'}limit:` }),
    secretKey: config.secretKey,
    serviceToken: config.serviceToken,
    // The /maintenance credential: MAINTENANCE_TOKEN registered hashed, rotatable and revocable (maintenance.service.ts).
    maintenanceCredential: maintenanceServiceOf(ctx).verifyCredential,
    publicUrl: config.publicUrl,
    sessions,
    log,
  });

  app.use(healthRoutes({ database: database.ping, ...(redis ? { redis: redis.ping } : {}) }));
  // The device gateway parses its own, larger bodies: mounted before the portal's 100 kB JSON limit.
  const gateway = deviceGatewayRouter({ ...ctx, checkedIn: (serial) => alerts.engine.deviceCheckedIn(serial) });
  app.use('/device/v1', gateway.router);
  const built = [...features.map((feature) => feature(ctx)), alerts.routes];
  // Authenticated calls outside /api/v1 (POST /api/pdf) parse their own bodies: mounted before the 100 kB limit.
  for (const mount of built.flatMap((f) => f.mounts ?? [])) app.use(mount.path, requireAuth(auth), mount.router);
  // Calls authenticated otherwise than by token (the payment webhook's signature) read their own raw bodies.
  for (const mount of built.flatMap((f) => f.publicMounts ?? [])) app.use(mount.path, mount.router);
  app.use(express.json({ limit: '100kb' }));
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const { publicRoutes, privateRoutes } = authRoutes(auth);
  app.use(publicRoutes);

  const api = Router();
  api.use(requireAuth(auth));
  // A portal write empties the cached fleet aggregates of every process once it is answered.
  api.use(invalidateAfterWrites(aggregates));
  api.use(privateRoutes);
  // Run-time client settings: the Google key is never baked into the build.
  api.get('/clientConfig', (_req, res) => {
    res.json({ googleMapsApiKey: config.googleMapsApiKey ?? null, mapStyleUrl: config.mapStyleUrl ?? null });
  });
  const docs: RouteDoc[] = [
    ...authDocs,
    { method: 'get', path: '/api/v1/clientConfig', tag: 'Auth', summary: 'Run-time client settings: { googleMapsApiKey, mapStyleUrl } (null key: the offline map; null style: its built-in basemap)' },
  ];
  for (const { router, docs: featureDocs } of built) {
    api.use(router);
    docs.push(...featureDocs);
  }
  app.use('/api/v1', api);

  const openApi = buildOpenApi(docs, {
    title: 'Fleet Portal API',
    version: '1',
    description: 'The device API of the fleet portal. Authenticate with `Authorization: Token <key>` from POST /auth/token/login/.',
  });
  app.get('/metrics', async (_req, res) => {
    res.type('text/plain; version=0.0.4').send((await deps.metrics?.()) ?? '');
  });
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  const docsHtml = docsPage('Fleet Portal API');
  const docsCsp = inlinePageCsp(docsHtml);
  app.get('/api/docs', (_req, res) => {
    res.set('Content-Security-Policy', docsCsp).type('html').send(docsHtml);
  });
  app.use(['/api', '/auth', '/device'], notFoundHandler);

  app.use(
    '/uploads',
    express.static(uploadsDir, {
      setHeaders: (res) => {
        // Uploaded files are only ever images: never let one run as a page.
        res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'");
        res.set('X-Content-Type-Options', 'nosniff');
      },
    }),
  );

  if (deps.clientDir && fs.existsSync(path.join(deps.clientDir, 'index.html'))) {
    // Hashed assets cached for a year, precompressed .br/.gz served as built, index.html revalidated (lib/static-client.ts).
    app.use(staticClient(deps.clientDir));
  }

  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return Object.assign(app, { queue, auth, redis, sessions, deviceAccess, nudges, aggregates, alerts });
}
