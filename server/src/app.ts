import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { authApi, realClock, type Clock } from '@fleet/shared';
import { authDocs, authLimits, authRepository, authRoutes, authService, quota, requireAuth } from './auth/index.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';
import { devicesRoutes, selectionsRoutes } from './devices/index.ts';
import { batchesRoutes } from './batches/index.ts';
import { sitesRoutes } from './sites/index.ts';
import { overviewRoutes } from './overview/index.ts';
import { brandsRoutes } from './brands/index.ts';
import { usersRoutes } from './users/index.ts';
import { placesRoutes } from './places/index.ts';
import { deviceGatewayRouter, gatewayAdminRoutes } from './gateway/index.ts';
import { telemetryRoutes } from './telemetry/index.ts';
import { reportRenderer, reportsRoutes } from './reports/index.ts';
import { servicePlanEvents, servicePlanRenderer, serviceDayRoutes, type ServicePlanEvents } from './service-day/index.ts';
import { billingRoutes } from './billing/index.ts';
import { healthRoutes } from './health/index.ts';
import { errorHandler, notFoundHandler } from './lib/errors.ts';
import { appRedis } from './lib/app-redis.ts';
import { type Mailer, type OutboxOptions, outboxQueue } from './mail/index.ts';
import { inlinePageCsp, securityHeaders } from './lib/security-headers.ts';
import { compressAnswers } from './lib/compression.ts';
import { declaredBodyTypes, undecodablePath } from './lib/request-guards.ts';
import { staticClient } from './lib/static-client.ts';
import { aggregateCache, invalidateAfterWrites, type AggregateCache } from './lib/aggregate-cache.ts';
import {
  bullmqQueue,
  inProcessQueue,
  jobs,
  pollNudger,
  type JobDeps,
  type JobName,
  type JobQueue,
  type PollNudger,
} from '@fleet/workers';
import type { AppContext } from './context.ts';
import { dbJobLedger } from './jobs/index.ts';
import { outboxTrace } from './ops/logger.ts';
import { buildOpenApi, docsPage, type RouteDoc, type Routes } from './openapi/route-docs.ts';
import { endpointRoutes } from './openapi/endpoint-routes.ts';
import { sessionHub, type SessionHub } from './realtime/index.ts';
import { deviceAccessHub, type DeviceAccessHub, partnersRoutes } from './partners/index.ts';
import { maintenanceRoutes, maintenanceServiceOf } from './maintenance/index.ts';
import { labelsRoutes } from './labels/index.ts';
import { rollupsRoutes } from './rollups/index.ts';
import { alertsFeatureOf, type AlertsOptions } from './alerts/index.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Directory of the built client (served with an SPA fallback) when it exists. */
  clientDir?: string;
  /** The job queue; by default the in-process runner over the same processors BullMQ runs. */
  queue?: JobQueue<JobName>;
  /**
   * The one clock of the rules (shared/src/rules/clock.ts): real by default; the season cross-check and
   * benchmarks give a simulated one. `now` is the older form of the same thing and wins when both are given.
   */
  clock?: Clock;
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
  /**
   * Devices whose pins may have changed (portal writes and check-ins), for the pin deltas of the push
   * server (realtime/pin-deltas.ts, issue 46); by default one for this process, across processes through Redis.
   */
  pinChanges?: PollNudger;
  /** Fleet aggregates cached per scope (lib/aggregate-cache.ts); by default one for this process, emptied across processes through Redis. */
  aggregates?: AggregateCache;
  /** Pushes service plan progress to owners' sockets; by default one for this process (attached like sessions). */
  servicePlanEvents?: ServicePlanEvents;
  /** Alerts' parts a test replaces (an SMS provider, a channel, the push agent); the loop starts in main.ts (`app.alerts.start`). */
  alerts?: Pick<AlertsOptions, 'sms' | 'channels' | 'pushAgent'>;
};

/** Feature routers mounted under /api/v1, each with its OpenAPI declarations. */
const features: ((ctx: AppContext) => Routes)[] = [
  devicesRoutes,
  selectionsRoutes,
  sitesRoutes,
  overviewRoutes,
  placesRoutes,
  brandsRoutes,
  usersRoutes,
  batchesRoutes,
  gatewayAdminRoutes,
  telemetryRoutes,
  reportsRoutes,
  billingRoutes,
  partnersRoutes,
  maintenanceRoutes,
  serviceDayRoutes,
  labelsRoutes,
  rollupsRoutes,
];

/** Builds the HTTP app from its dependencies without listening (supertest drives it directly). */
export function createApp(deps: AppDeps) {
  const { config, database } = deps;
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ''));
  const clock = deps.clock ?? realClock;
  const now = deps.now ?? (() => clock.now());
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const jobDeps: JobDeps = {
    mailer: deps.mailer,
    reports: reportRenderer(database.db, { now }),
    servicePlans: servicePlanRenderer(database.db),
  };
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
  const nudges =
    deps.nudges ?? pollNudger({ redisUrl: config.redisUrl, ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}), log });
  const pinChanges =
    deps.pinChanges ??
    pollNudger({
      redisUrl: config.redisUrl,
      ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}),
      channel: 'pins:changed',
      log,
    });
  const aggregates =
    deps.aggregates ??
    aggregateCache({
      redisUrl: config.redisUrl,
      ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}),
      database: database.db,
      log,
    });
  const planEvents =
    deps.servicePlanEvents ??
    servicePlanEvents({ redisUrl: config.redisUrl, ...(deps.redisPrefix ? { redisPrefix: deps.redisPrefix } : {}), log });
  // One Redis client for the auth counters, the report mail quota and /readyz (fails fast while Redis is down; limits.ts).
  const redis = appRedis(config.redisUrl, log);
  const limitStore = { redis: redis?.client, prefix: `${deps.redisPrefix ?? 'fleet:'}limit:` };
  // Report mails: 30 an hour per user (issue 42: a client had mailed 20 reports to a stranger's address).
  const reportMails = quota(
    limitStore,
    'report-mails',
    { points: 30, durationSeconds: 3600 },
    'Too many report mails: at most 30 an hour.',
  );
  const ctx: AppContext = {
    db: database.db,
    config,
    mailer: deps.mailer,
    queue,
    uploadsDir,
    now,
    sessions,
    deviceAccess,
    log,
    // A portal write's changed devices: their watchers' polls run now, and their pins' deltas go out.
    pollNudge: {
      devicesChanged(serials) {
        nudges.devicesChanged(serials);
        pinChanges.devicesChanged(serials);
      },
    },
    aggregates,
    servicePlanEvents: planEvents,
    reportMails,
  };
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
  // An undecodable path is a 400 before any route, token check or body parser sees it (lib/request-guards.ts).
  app.use(undecodablePath);

  const auth = authService({
    repo: authRepository(database.db),
    mailer: deps.mailer,
    sessionTtl: config.sessionTtl,
    limits: authLimits({ login: config.loginLimit, ...limitStore }),
    secretKey: config.secretKey,
    serviceToken: config.serviceToken,
    // The /maintenance credential: MAINTENANCE_TOKEN registered hashed, rotatable and revocable (maintenance.service.ts).
    maintenanceCredential: maintenanceServiceOf(ctx).verifyCredential,
    publicUrl: config.publicUrl,
    sessions,
    log,
  });

  app.use(healthRoutes({ database: database.ping, ...(redis ? { redis: redis.ping } : {}) }));
  const built = [...features.map((feature) => feature(ctx)), alerts.routes];
  const publicMounts = built.flatMap((f) => f.publicMounts ?? []);
  // Every JSON call refuses a body of another type with 415 before it is read; the device gateway and the
  // signed webhook keep their own formats (lib/request-guards.ts).
  app.use(
    declaredBodyTypes(
      [...authDocs, ...built.flatMap((f) => f.docs)],
      (doc) => doc.auth === 'device' || publicMounts.some((m) => doc.path.startsWith(m.path)),
    ),
  );
  // The device gateway parses its own, larger bodies: mounted before the portal's 100 kB JSON limit.
  const gateway = deviceGatewayRouter({
    ...ctx,
    checkedIn: (serial) => {
      alerts.engine.deviceCheckedIn(serial);
      pinChanges.devicesChanged([serial]);
    },
  });
  app.use('/device/v1', gateway.router);
  // Authenticated calls outside /api/v1 (POST /api/pdf) parse their own bodies: mounted before the 100 kB limit.
  for (const mount of built.flatMap((f) => f.mounts ?? [])) app.use(mount.path, requireAuth(auth), mount.router);
  // Calls authenticated otherwise than by token (the payment webhook's signature) read their own raw bodies.
  for (const mount of publicMounts) app.use(mount.path, mount.router);
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
  const settings = endpointRoutes();
  settings.on(authApi.clientConfig, (_req, res) => {
    res.json({ googleMapsApiKey: config.googleMapsApiKey ?? null, mapStyleUrl: config.mapStyleUrl ?? null });
  });
  api.use(settings.router);
  const docs: RouteDoc[] = [...authDocs, ...settings.docs];
  for (const { router, docs: featureDocs } of built) {
    api.use(router);
    docs.push(...featureDocs);
  }
  app.use('/api/v1', api);

  const openApi = buildOpenApi(docs, {
    title: 'Fleet Portal API',
    version: '1',
    description:
      'The device API of the fleet portal. Authenticate with `Authorization: Token <key>` from POST /auth/token/login/.',
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
  return Object.assign(app, {
    queue,
    auth,
    redis,
    sessions,
    deviceAccess,
    nudges,
    pinChanges,
    aggregates,
    servicePlanEvents: planEvents,
    alerts,
  });
}
