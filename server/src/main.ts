/**
 * Starts the portal: configuration, database (PGlite under DATA_DIR, or PostgreSQL with DATABASE_URL),
 * the demo fleet on first start (never in production), then the HTTP server.
 */
import http from 'node:http';
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

const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') });
console.log(`database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL (DATABASE_URL)'}`);

if (config.seedDemo) {
  const started = Date.now();
  const summary = await seedDemoIfEmpty(database, {
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: console.log,
    historyDays: Number(process.env.SEED_HISTORY_DAYS ?? 365),
  });
  if (summary) console.log(`first start: demo fleet seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log: console.log });
const app = createApp({ config, database, mailer, clientDir: path.resolve(here, '../../client/dist') });
const server = http.createServer(app);
// Devices that miss their own schedule go offline; pending changes nobody picked up expire.
const stopFleetHealth = startFleetHealth(database.db, console.log);

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
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  stopFleetHealth();
  server.close();
  server.closeAllConnections();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
