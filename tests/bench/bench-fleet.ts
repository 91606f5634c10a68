import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { count, openDatabase, type Database } from '../../server/src/db/client.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { seedScale } from '../../server/src/seed/scale.ts';
import { foldBatchConsumption } from '../../server/src/batches/index.ts';

/**
 * The scaled fleet a benchmark runs on: PostgreSQL at 127.0.0.1:5432 in a database named after the sizes
 * (created and seeded once, reused by later runs), or PGlite seeded into `dataDir`.
 */
export async function openBenchFleet(opts: {
  pglite: boolean;
  devices: number;
  sites: number;
  days: number;
  dataDir: string;
}): Promise<Database> {
  let url: string | undefined;
  if (!opts.pglite) {
    const admin = new pg.Client('postgres://postgres@127.0.0.1:5432/postgres');
    await admin.connect();
    const dbName = `fleet_bench_${opts.devices}_${opts.sites}_${opts.days}`;
    const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
    if (!exists.rowCount) await admin.query(`create database ${dbName}`);
    await admin.end();
    url = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  }
  const database = await openDatabase(opts.pglite ? { dataDir: path.join(opts.dataDir, 'pgdata') } : { url });
  if ((await count(database.db, 'users')) === 0) {
    console.log(
      `seeding ${opts.devices} devices on ${opts.sites} sites with ${opts.days} days of telemetry into ${opts.pglite ? 'PGlite' : url}...`,
    );
    await seedScale(database, {
      devices: opts.devices,
      sites: opts.sites,
      historyDays: opts.days,
      uploadsDir: path.join(opts.dataDir, 'uploads'),
      log: console.log,
      tty: process.stdout.isTTY ? process.stdout : undefined,
    });
  }
  // The batch consumption earlier runs' check-ins appended, folded as the fleet-health tick would have.
  await foldBatchConsumption(database.db);
  return database;
}

/** The bench's secret key (a development value, never a deployment's): the portal and its gateway process hash device secrets with it. */
export const BENCH_SECRET_KEY = 'b'.repeat(32);

/** The portal on that fleet behind a real HTTP server on a free port, and a demo user's token. */
export async function startBenchPortal(database: Database, dataDir: string, opts: { clientDir?: string } = {}) {
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      SECRET_KEY: BENCH_SECRET_KEY,
      MAINTENANCE_TOKEN: BENCH_SECRET_KEY,
      CHECKIN_SYNCHRONOUS_COMMIT: process.env.CHECKIN_SYNCHRONOUS_COMMIT,
    }),
    loginLimit: { perEmail: 1000, perAddress: 1000, windowSeconds: 60 },
  };
  const app = createApp({
    config,
    database,
    mailer: createMailer({ from: 'bench@x', outboxDir: path.join(dataDir, 'outbox') }),
    log: () => undefined,
    clientDir: opts.clientDir,
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const login = async (email: string) =>
    (
      (await (
        await fetch(`${base}/auth/token/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'Demo1234' }),
        })
      ).json()) as { auth_token: string }
    ).auth_token;
  return {
    app,
    base,
    login,
    async close() {
      server.close();
      await app.queue.close();
    },
  };
}
