/**
 * Starts the portal: configuration, database (PGlite under DATA_DIR, or PostgreSQL with DATABASE_URL),
 * the demo fleet on first start (never in production), then the HTTP server. In development the demo
 * fleet then checks in live through the fleet simulator (SIMULATOR=off disables it, SIMULATOR_SPEED sets
 * its speed, 60 by default).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { openDatabase } from './db/client.ts';
import { users } from './db/schema.ts';
import { createMailer } from './mail/mailer.ts';
import { DEMO_PASSWORD } from './seed/demo-data.ts';
import { seedDemoIfEmpty } from './seed/demo.ts';
import { startFleetHealth } from './gateway/fleet-health.ts';
import { startRealtime } from './realtime/realtime.ts';
import { startReportSchedules } from './jobs/report-schedules.ts';
import { startOverdueSchedule } from './billing/overdue-schedule.ts';
import { startDemoSimulator, type Simulator } from '../../workers/src/simulator/simulator.ts';
import { demoSimulatorDevices } from './seed/demo-simulator-keys.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const databaseOptions = { url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') };
let database = await openDatabase(databaseOptions);
console.log(`database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL (DATABASE_URL)'}`);

if (config.seedDemo) {
  const started = Date.now();
  const summary = await seedDemoIfEmpty(database, {
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: console.log,
    historyDays: Number(process.env.SEED_HISTORY_DAYS ?? 365),
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

const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: console.log });
let realtime: Awaited<ReturnType<typeof startRealtime>> | undefined;
const app = createApp({ config, database, mailer, clientDir: path.resolve(here, '../../client/dist'), metrics: () => realtime?.counters.prometheus() ?? '' });
const server = http.createServer(app);
// Browsers subscribe over Socket.IO; pollers read the device API (this server unless DEVICE_API_URL says
// otherwise) only for what someone watches. With REDIS_URL, every process shares one poll per subject.
realtime = await startRealtime(server, {
  db: database.db,
  auth: app.auth,
  sessions: app.sessions,
  deviceAccess: app.deviceAccess,
  serviceToken: config.serviceToken,
  deviceApiUrl: config.deviceApiUrl ?? `http://127.0.0.1:${config.port}`,
  redisUrl: config.redisUrl,
  log: console.error,
});
// Devices that miss their own schedule go offline; pending changes nobody picked up expire.
const stopFleetHealth = startFleetHealth(database.db, console.log);
// Daily and weekly dispensation mails, as queued jobs keyed per user and period.
const stopReportSchedules = startReportSchedules(database.db, app.queue, console.log);
// The overdue rule: an invoice unpaid 15 days past its due date deactivates its payer (once per tick across processes).
const stopOverdueSchedule = startOverdueSchedule({ db: database.db, config, now: () => new Date(), sessions: app.sessions, log: console.log });

let simulator: Simulator | null = null;
server.listen(config.port, async () => {
  console.log(`Fleet portal listening on ${config.publicUrl}`);
  if (!config.isProduction) {
    const demo = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test'];
    const present = [];
    for (const email of demo) {
      const [u] = await database.db.select({ role: users.role, userType: users.userType }).from(users).where(eq(users.email, email));
      if (u) present.push(`  ${email.padEnd(24)} ${DEMO_PASSWORD}   (${u.userType === 'market-partner' ? 'market-partner' : u.role})`);
    }
    if (present.length) console.log(`Demo accounts:\n${present.join('\n')}`);
  }
  if (config.seedDemo && process.env.SIMULATOR !== 'off') {
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
      if (stopping) await sim.stop();
      else simulator = sim;
    } catch (err) {
      console.error('fleet simulator did not start:', err);
    }
  }
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  stopFleetHealth();
  stopReportSchedules();
  stopOverdueSchedule();
  await simulator?.stop();
  await realtime?.close();
  app.sessions.close();
  app.redis?.close();
  app.deviceAccess.close();
  await app.queue.close();
  server.close();
  server.closeAllConnections();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
