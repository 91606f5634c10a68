/**
 * Starts one process of the portal in one of its roles (ops/process-role.ts), each a file of processes/:
 * the portal (processes/portal.ts), the worker (processes/worker.ts), the gateway (processes/gateway.ts).
 * `npm start` runs all of it in one process (HTTP, Socket.IO, pollers, jobs, schedules, and in development the demo fleet seeded
 * on first start and played live by the simulator: SIMULATOR=off disables it, SIMULATOR_SPEED sets its
 * speed); `npm run start:server` only answers browsers and devices; `npm run start:worker` polls, runs
 * the queued jobs and the scheduled ticks; `npm run start:gateway` answers devices only (the proxy sends
 * them there, so a busy portal does not keep them waiting). Migrations run under an advisory lock, so any number of
 * processes may start together against one PostgreSQL. SIGTERM drains the process (ops/shutdown.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config/config.ts';
import { openDatabase } from './db/client.ts';
import { createMailer } from './mail/index.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';
import { processRole, roleRequirements, sharedSecretProblems } from './ops/process-role.ts';
import { createLogger, logFn, routeConsole, type LogFormat } from './ops/logger.ts';
import { processMetrics } from './ops/metrics.ts';
import { gracefulShutdown } from './ops/shutdown.ts';
import { startGateway } from './processes/gateway.ts';
import { startPortal } from './processes/portal.ts';
import { startWorker } from './processes/worker.ts';
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
const logFormat: LogFormat =
  env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'text'
    ? env.LOG_FORMAT
    : role === 'all' && !config.isProduction
      ? 'text'
      : 'json';
const logger = createLogger({ role, format: logFormat, level: env.LOG_LEVEL ?? 'info' });
routeConsole(logger);
const log = logFn(logger);
const metrics = processMetrics({ role });
const shutdown = gracefulShutdown({
  log,
  timeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000),
  acceptForMs: Number(env.SHUTDOWN_ACCEPT_MS ?? 1000),
});
shutdown.install();
const redisPrefix = config.redisPrefix ?? 'fleet:';

const databaseOptions = { url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') };
let database = await openDatabase(databaseOptions);
log(
  `database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL (DATABASE_URL), migrations applied'}`,
);

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

const mailer = metrics.countedMailer(
  createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log: console.log,
  }),
);

// One process per role, each in its own file under processes/.
if (role === 'gateway') {
  startGateway({ config, database, logger, log, metrics, shutdown });
} else if (role === 'worker') {
  await startWorker({
    config: config as Config & { redisUrl: string },
    database,
    mailer,
    logger,
    log,
    metrics,
    redisPrefix,
    deviceApiUrl: config.deviceApiUrl!,
    shutdown,
  });
} else {
  const clientDir = env.CLIENT_DIST ? path.resolve(env.CLIENT_DIST) : path.resolve(here, '../../client/dist');
  await startPortal({ role, config, database, mailer, logger, logFormat, log, metrics, shutdown, redisPrefix, clientDir, env });
}
