/**
 * Starts one process of the portal in one of three roles (ops/process-role.ts): `npm start` runs all of
 * it in one process (HTTP, Socket.IO, pollers, jobs, schedules, and in development the demo fleet seeded
 * on first start and played live by the simulator: SIMULATOR=off disables it, SIMULATOR_SPEED sets its
 * speed); `npm run start:server` only answers browsers and devices; `npm run start:worker` polls, runs
 * the queued jobs and the scheduled ticks; `npm run start:gateway` answers devices only (the proxy sends
 * them there, so a busy portal does not keep them waiting). Migrations run under an advisory lock, so any number of
 * processes may start together against one PostgreSQL. SIGTERM drains the process (ops/shutdown.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { createApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config/config.ts';
import { openDatabase } from './db/client.ts';
import { users } from './db/schema.ts';
import { createMailer } from './mail/index.ts';
import { DEMO_PASSWORD } from './seed/demo-data.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';
import { startFleetHealth, startReportSchedules } from './jobs/index.ts';
import { sessionHub, startRealtime } from './realtime/index.ts';
import { deviceAccessHub } from './partners/index.ts';
import { startOverdueSchedule } from './billing/index.ts';
import { startDemoSimulator, type Simulator } from '@fleet/workers';
import { demoSimulatorDevices } from './seed/demo-simulator-keys.ts';
import { processRole, roleRequirements, sharedSecretProblems } from './ops/process-role.ts';
import { createLogger, logFn, routeConsole, type LogFormat } from './ops/logger.ts';
import { processMetrics } from './ops/metrics.ts';
import { opsMiddleware } from './ops/http.ts';
import { gracefulShutdown } from './ops/shutdown.ts';
import { jobQueueFor } from './ops/job-queue.ts';
import { startWorkerRole } from './ops/worker-role.ts';
import { createGatewayApp } from './ops/gateway-role.ts';
import { alertsFeatureOf } from './alerts/index.ts';
import { heapGrowingPercent, limitHeapGrowth } from './ops/heap-growth.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;

let role;
let config: Config;
try {
  role = processRole(process.argv.slice(2), env);
  const secrets = sharedSecretProblems(role, env);
  if (secrets.length) throw new ConfigError(`Refusing to start: ${secrets.join('; ')}`);
  // Only the all-in-one process generates development secrets; a scaled role takes every secret, the
  // payment webhook's key included, from the environment (config.ts).
  config = loadConfig(env, { generateSecrets: role === 'all' });
  const problems = roleRequirements(role, config);
  if (problems.length) throw new ConfigError(`Refusing to start: ${problems.join('; ')}`);
  // Every role: the heap grows by half its live size between full collections, not up to four times (ops/heap-growth.ts).
  limitHeapGrowth(heapGrowingPercent(env));
} catch (err) {
  if (err instanceof ConfigError || (err instanceof Error && err.message.startsWith('Unknown role'))) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// JSON lines for machines (scaled roles, production); short lines for a person at `npm start`.
const logFormat: LogFormat = env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'text' ? env.LOG_FORMAT : role === 'all' && !config.isProduction ? 'text' : 'json';
const logger = createLogger({ role, format: logFormat, level: env.LOG_LEVEL ?? 'info' });
routeConsole(logger);
const log = logFn(logger);
const metrics = processMetrics({ role });
const shutdown = gracefulShutdown({ log, timeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000), acceptForMs: Number(env.SHUTDOWN_ACCEPT_MS ?? 1000) });
shutdown.install();
const redisPrefix = config.redisPrefix ?? 'fleet:';

const databaseOptions = { url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') };
let database = await openDatabase(databaseOptions);
log(`database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL (DATABASE_URL), migrations applied'}`);

// The demo seed runs in the one-command process; in a scaled deployment use `npm run seed` once.
if (config.seedDemo && role === 'all') {
  const started = Date.now();
  const summary = await seedDemoIfEmpty(database, {
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: console.log,
    historyDays: Number(env.SEED_HISTORY_DAYS ?? 365),
    // A minute of work: a progress bar on a terminal, a line per stage (share done, time left) in the logs.
    tty: process.stdout.isTTY && logFormat === 'text' ? process.stdout : undefined,
  });
  if (summary) {
    console.log(`first start: demo fleet seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The embedded database grew its memory to write a year of history; serving needs far less.
    if (database.kind === 'pglite') {
      await database.close();
      database = await openDatabase(databaseOptions);
    }
  }
}

const mailer = metrics.countedMailer(createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: console.log }));
let server: http.Server;

if (role === 'gateway') {
  // The gateway records the alerts its check-ins raise (incidents and notification rows); the servers and
  // workers dispatch them (their loops claim due rows every second), so it needs no queue or sockets.
  const alerts = alertsFeatureOf(database.db, { ...config, alerts: { ...config.alerts, vapid: undefined } }, {
    mailQueue: { enqueue: async () => { throw new Error('the gateway role sends nothing'); } },
    emitToUser: () => undefined,
    log,
  });
  const app = createGatewayApp({ config, database, log, ops: opsMiddleware({ logger, metrics, draining: shutdown.middleware, quietSuccess: false }), metrics, checkedIn: (serial) => alerts.engine.deviceCheckedIn(serial) });
  server = http.createServer(app);
  shutdown.attach(server);
  shutdown.add(['alerts', () => alerts.engine.flushCheckins()], ['database', () => database.close()]);
  server.listen(config.port, config.host, () => log(`gateway: device check-ins on ${describe(server)}`));
} else if (role === 'worker') {
  const worker = await startWorkerRole({
    config: config as Config & { redisUrl: string },
    database,
    mailer,
    logger,
    log,
    metrics,
    redisPrefix,
    deviceApiUrl: config.deviceApiUrl!,
    draining: shutdown.middleware,
  });
  server = http.createServer(worker.app);
  shutdown.attach(server);
  shutdown.add(...worker.steps, ['database', () => database.close()]);
  server.listen(config.port, config.host, () => log(`worker: health and metrics on ${describe(server)}`));
} else {
  const { queue, depth } = jobQueueFor({ config, database, mailer, runWorker: role === 'all', redisPrefix: config.redisPrefix, log });
  if (depth) metrics.watchQueue(depth);
  const sessions = sessionHub({ redisUrl: config.redisUrl, redisPrefix, log });
  const deviceAccess = deviceAccessHub({ redisUrl: config.redisUrl, redisPrefix, log });
  const app = createApp({
    config,
    database,
    mailer,
    queue,
    sessions,
    deviceAccess,
    log,
    ...(config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    clientDir: env.CLIENT_DIST ? path.resolve(env.CLIENT_DIST) : path.resolve(here, '../../client/dist'),
    ops: opsMiddleware({ logger, metrics, draining: shutdown.middleware, quietSuccess: logFormat === 'text' }),
    metrics: () => metrics.text(),
  });
  server = http.createServer(app);
  // Browsers subscribe over Socket.IO. In the one-command run this process polls the device API (itself
  // unless DEVICE_API_URL says otherwise) for what someone watches; a `start:server` only records the
  // watches in Redis and the workers poll. With REDIS_URL, every process shares one poll per subject.
  const realtime = await startRealtime(server, {
    db: database.db,
    auth: app.auth,
    sessions,
    deviceAccess,
    serviceToken: config.serviceToken,
    deviceApiUrl: config.deviceApiUrl ?? `http://127.0.0.1:${config.port}`,
    redisUrl: config.redisUrl,
    redisPrefix,
    pollers: role === 'all',
    // Portal writes nudge the pollers (in process, or through Redis to whichever process polls).
    nudges: app.nudges.source,
    countPoll: metrics.countPoll,
    log,
  });
  metrics.watchSockets(() => realtime.io.engine.clientsCount);
  const stops: (() => void)[] = [];
  // Alerts: every server process dispatches due notifications (claimed with SKIP LOCKED, so never twice);
  // the one-command run also evaluates the fleet every minute and escalates (start:worker does it scaled).
  const stopAlerts = app.alerts.start({ fleet: role === 'all' });
  if (role === 'all') {
    // Devices that miss their own schedule go offline; pending changes nobody picked up expire.
    stops.push(startFleetHealth(database.db, log));
    // Daily and weekly dispensation mails, as queued jobs keyed per user and period.
    stops.push(startReportSchedules(database.db, app.queue, log));
    // The overdue rule: an invoice unpaid 15 days past its due date deactivates its payer (once per tick across processes).
    stops.push(startOverdueSchedule({ db: database.db, config, now: () => new Date(), sessions, log }));
  }
  let simulator: Simulator | null = null;
  shutdown.attach(server, () => {
    // At the transport, so browsers reconnect (elsewhere, through the proxy) and resubscribe.
    for (const socket of realtime.io.of('/').sockets.values()) socket.conn.close();
  });
  shutdown.add(
    ['schedules', () => stops.forEach((stop) => stop())],
    ['simulator', () => simulator?.stop()],
    ['realtime', () => realtime.close()],
    ['alerts', () => stopAlerts()],
    // Jobs this process runs (the one-command run) finish; queued ones stay in Redis for the workers.
    ['queue', () => app.queue.close()],
    ['redis', () => {
      sessions.close();
      deviceAccess.close();
      app.redis?.close();
      void app.nudges.close();
      void app.aggregates.close();
    }],
    ['database', () => database.close()],
  );

  server.listen(config.port, config.host, async () => {
    log(role === 'all' ? `Fleet portal listening on ${config.publicUrl}` : `server: listening on ${describe(server)} (public ${config.publicUrl})`);
    if (role !== 'all') return;
    if (!config.isProduction) {
      const demo = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test'];
      const present = [];
      for (const email of demo) {
        const [u] = await database.db.select({ role: users.role, userType: users.userType }).from(users).where(eq(users.email, email));
        if (u) present.push(`  ${email.padEnd(24)} ${DEMO_PASSWORD}   (${u.userType === 'market-partner' ? 'market-partner' : u.role})`);
      }
      if (present.length) console.log(`Demo accounts:\n${present.join('\n')}`);
    }
    if (config.seedDemo && env.SIMULATOR !== 'off') {
      // Only with the demo, and only the demo's own devices: a restart keeps their secrets, and a device
      // the simulator did not key (rotated by a distributor, provisioned elsewhere, real) is left alone.
      try {
        const sim = await startDemoSimulator(
          {
            baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            listDevices: async () => {
              const demo = await demoSimulatorDevices(database.db, config.secretKey);
              if (demo.keyed || demo.skipped) console.log(`simulator: ${demo.keyed} demo devices keyed, ${demo.skipped} devices with other secrets left alone`);
              return demo.devices;
            },
          },
          console.log,
        );
        if (shutdown.isDraining()) await sim.stop();
        else simulator = sim;
      } catch (err) {
        log('fleet simulator did not start', err);
      }
    }
  });
}

function describe(s: http.Server) {
  const a = s.address() as AddressInfo | null;
  return a ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : '?';
}
