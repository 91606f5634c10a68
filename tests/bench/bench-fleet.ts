import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { count, openDatabase, quoteIdent, type Database } from '../../server/src/db/client.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { seedScale } from '../../server/src/seed/scale.ts';
import { foldBatchConsumption } from '../../server/src/batches/index.ts';

/** PostgreSQL of the bench: 127.0.0.1:5432 as its superuser (trust), as the tests use it. */
const PG = 'postgres://postgres@127.0.0.1:5432';
const root = path.resolve(import.meta.dirname, '../..');

/**
 * What a seeded fleet depends on besides its sizes: the seed's code, the migrations and the database
 * functions. A template is kept per sizes and this key, so a change to any of them seeds again (a
 * template migrated on every copy would be slow at 100,000 devices, and could differ from a fresh seed).
 */
export function seedKey(): string {
  const files = [
    ...['scale.ts', 'telemetry.ts', 'demo.ts', 'demo-data.ts'].map((f) => path.join(root, 'server/src/seed', f)),
    path.join(root, 'server/drizzle/meta/_journal.json'),
    ...fs
      .readdirSync(path.join(root, 'server/src/db/functions'))
      .sort()
      .map((f) => path.join(root, 'server/src/db/functions', f)),
  ];
  const hash = crypto.createHash('sha1');
  for (const f of files) if (fs.existsSync(f)) hash.update(fs.readFileSync(f));
  return hash.digest('hex').slice(0, 8);
}

export type FleetSize = { devices: number; sites: number; days: number };
/** The template database of a fleet (PostgreSQL): seeded once, never opened by a run, only copied. */
export const templateName = (size: FleetSize, key = seedKey()) => `fleet_tpl_${size.devices}_${size.sites}_${size.days}_${key}`;
/** The run's copy of that template: made again at the start of each run, so every run starts from the same state. */
export const runDatabaseName = (size: FleetSize) => `fleet_run_${size.devices}_${size.sites}_${size.days}`;

/** How the run's database was made: seeded now (ms; null when a kept template served), copied (ms). */
export type FleetPrepared = { template: string; seedMs: number | null; copyMs: number; pglite: boolean };

/**
 * The scaled fleet a benchmark runs on.
 *
 * PostgreSQL (127.0.0.1:5432): a template database per sizes and seed (templateName) is seeded once, by
 * seedScale's set-based statements (generate_series inside the database, no row sent from here), and
 * kept; each run copies it into its own database (runDatabaseName; CREATE DATABASE ... TEMPLATE with
 * STRATEGY FILE_COPY: a copy of the files, seconds even at 100,000 devices, where seeding takes minutes).
 * An interrupted seed leaves only `<template>_seeding`, dropped by the next attempt: the template's name
 * appears only once it is complete. `copy: false` opens the run's database as it is (the gateway process
 * of the same run, after the portal's process made it).
 *
 * PGlite: the seeded data folder is kept the same way in the temp folder (fleet-bench-pglite-<sizes>-<key>)
 * and copied into `dataDir`.
 */
export async function openBenchFleet(opts: {
  pglite: boolean;
  devices: number;
  sites: number;
  days: number;
  dataDir: string;
  copy?: boolean;
}): Promise<Database & { prepared: FleetPrepared }> {
  const size = { devices: opts.devices, sites: opts.sites, days: opts.days };
  const key = seedKey();
  const seed = async (database: Database, what: string) => {
    console.log(`seeding ${size.devices} devices on ${size.sites} sites with ${size.days} days of telemetry into ${what}...`);
    const t0 = Date.now();
    await seedScale(database, {
      devices: size.devices,
      sites: size.sites,
      historyDays: size.days,
      uploadsDir: path.join(opts.dataDir, 'uploads'),
      log: console.log,
      tty: process.stdout.isTTY ? process.stdout : undefined,
    });
    return Date.now() - t0;
  };
  let database: Database;
  let prepared: FleetPrepared;
  if (opts.pglite) {
    const kept = path.join(os.tmpdir(), `fleet-bench-pglite-${size.devices}-${size.sites}-${size.days}-${key}`);
    let seedMs: number | null = null;
    if (!fs.existsSync(path.join(kept, 'complete'))) {
      fs.rmSync(kept, { recursive: true, force: true });
      const seeding = await openDatabase({ dataDir: path.join(kept, 'pgdata') });
      seedMs = await seed(seeding, `PGlite (kept in ${kept})`);
      await seeding.close();
      fs.writeFileSync(path.join(kept, 'complete'), new Date().toISOString());
    }
    const t0 = Date.now();
    fs.cpSync(path.join(kept, 'pgdata'), path.join(opts.dataDir, 'pgdata'), { recursive: true });
    prepared = { template: kept, seedMs, copyMs: Date.now() - t0, pglite: true };
    database = await openDatabase({ dataDir: path.join(opts.dataDir, 'pgdata') });
  } else {
    const template = templateName(size, key);
    const run = runDatabaseName(size);
    const admin = new pg.Client(`${PG}/postgres`);
    await admin.connect();
    let seedMs: number | null = null;
    let copyMs = 0;
    try {
      // One process seeds or copies at a time; another waits, then finds the template made.
      await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
      const exists = async (name: string) =>
        Boolean((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount);
      if (!(await exists(template))) {
        const seeding = `${template}_seeding`;
        await admin.query(`drop database if exists ${quoteIdent(seeding)} with (force)`);
        await admin.query(`create database ${quoteIdent(seeding)}`);
        const db = await openDatabase({ url: `${PG}/${seeding}` });
        seedMs = await seed(db, `PostgreSQL ${seeding}`);
        await db.close();
        await admin.query(`alter database ${quoteIdent(seeding)} rename to ${quoteIdent(template)}`);
        // Nobody connects to the template by mistake (a run would change what the next runs copy).
        await admin.query(`alter database ${quoteIdent(template)} with is_template true allow_connections false`);
        // Templates of the same sizes from an older seed or schema: the bench made them, the bench drops them.
        const stale = await admin.query<{ datname: string }>(
          'select datname from pg_database where datname like $1 and datname <> $2',
          [`fleet\\_tpl\\_${size.devices}\\_${size.sites}\\_${size.days}\\_%`, template],
        );
        for (const { datname } of stale.rows) {
          await admin.query(`alter database ${quoteIdent(datname)} with is_template false`);
          await admin.query(`drop database if exists ${quoteIdent(datname)} with (force)`);
        }
      }
      if (opts.copy !== false || !(await exists(run))) {
        const t0 = Date.now();
        await admin.query(`drop database if exists ${quoteIdent(run)} with (force)`);
        await admin.query(`create database ${quoteIdent(run)} template ${quoteIdent(template)} strategy file_copy`);
        copyMs = Date.now() - t0;
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [template]).catch(() => undefined);
      await admin.end();
    }
    prepared = { template, seedMs, copyMs, pglite: false };
    database = await openDatabase({ url: `${PG}/${run}` });
  }
  if ((await count(database.db, 'devices')) < size.devices)
    throw new Error(`the bench fleet ${prepared.template} holds fewer than ${size.devices} devices`);
  // The batch consumption earlier runs' check-ins appended, folded as the fleet-health tick would have.
  await foldBatchConsumption(database.db);
  return Object.assign(database, { prepared });
}

/** The bench's secret key (a development value, never a deployment's): the portal and its gateway process hash device secrets with it. */
export const BENCH_SECRET_KEY = 'b'.repeat(32);

/** The portal on that fleet behind a real HTTP server on a free port, and a demo user's token. */
export async function startBenchPortal(database: Database, dataDir: string, opts: { clientDir?: string; port?: number } = {}) {
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
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
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
    config,
    server,
    base,
    login,
    async close() {
      server.close();
      await app.queue.close();
    },
  };
}
