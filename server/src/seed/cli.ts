/**
 * `npm run seed`: seeds the demo fleet into the configured database (DATABASE_URL or PGlite under
 * DATA_DIR). Refuses a database that already has users unless --reset is given, which empties it first.
 */
import path from 'node:path';
import { loadConfig } from '../config/config.ts';
import { openDatabase } from '../db/client.ts';
import { seedDemo, seedDemoIfEmpty } from './demo.ts';

const args = process.argv.slice(2);
const config = loadConfig();
if (config.isProduction) {
  console.error('Refusing to seed demo data with NODE_ENV=production.');
  process.exit(1);
}
const historyArg = args.find((a) => a.startsWith('--history-days='));
const historyDays = historyArg ? Number(historyArg.split('=')[1]) : 365;
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pgdata') });
try {
  // A bar on a terminal, plain lines with the share done and the time left otherwise.
  const opts = {
    historyDays,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log: console.log,
    tty: process.stdout.isTTY ? process.stdout : undefined,
  };
  if (args.includes('--reset')) {
    await database.exec(`TRUNCATE users, locations, device_groups, brands, batches, devices RESTART IDENTITY CASCADE`);
    await seedDemo(database, opts);
  } else {
    const summary = await seedDemoIfEmpty(database, opts);
    if (!summary) console.log('The database already has users: nothing seeded (use --reset to start over).');
  }
} finally {
  await database.close();
}
