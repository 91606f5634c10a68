import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../server/src/app.ts';
import { loadConfig, type Config } from '../../server/src/config/config.ts';
import { openDatabase, quoteIdent, type Database } from '../../server/src/db/client.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { seedDemo, seedDemoIfEmpty } from '../../server/src/seed/demo.ts';
import { TEST_DATABASE_URL, type Backend } from './backends.ts';
import { pgliteImage } from './pglite-image.ts';
import { startSmtpServer } from './smtp.ts';

export type Harness = {
  app: Express;
  database: Database;
  config: Config;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  dataDir: string;
  close(): Promise<void>;
};

/** The configuration of a harness's portal (another process serving the same database uses it too). */
export function harnessConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      SECRET_KEY: 'k'.repeat(32),
      MAINTENANCE_TOKEN: 'm'.repeat(32),
    }),
    publicUrl: 'http://portal.test',
    ...overrides,
  };
}

/**
 * A whole portal on a fresh database (PGlite in memory, or its own schema in the test PostgreSQL),
 * seeded with the demo fleet (a few days of history), mailing through a real local SMTP server.
 */
export async function startHarness(
  backend: Backend,
  overrides: Partial<Config> = {},
  /** pgliteDir: PGlite on these files (kept after close), seeded only when empty, as `npm start` runs it. */
  opts: { seed?: boolean; pgliteDir?: string } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'));
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  // PGlite in memory starts from the run's image (tests/helpers/pglite-image.ts): the demo fleet seeded
  // once per run, its uploaded logos copied beside this harness's data.
  const image = backend === 'pglite' && !opts.pgliteDir ? await pgliteImage(opts.seed === false ? 'empty' : 'demo') : null;
  const database = await openDatabase(
    backend === 'postgres'
      ? { url: TEST_DATABASE_URL, schema }
      : opts.pgliteDir
        ? { dataDir: opts.pgliteDir }
        : { pgliteImage: image?.tarball },
  );
  const seedOptions = { uploadsDir: path.join(opts.pgliteDir ?? dataDir, '..', 'uploads'), historyDays: 3 };
  if (opts.seed !== false) {
    if (opts.pgliteDir) await seedDemoIfEmpty(database, seedOptions);
    else if (image?.uploadsDir) fs.cpSync(image.uploadsDir, path.join(dataDir, 'uploads'), { recursive: true });
    else await seedDemo(database, { ...seedOptions, uploadsDir: path.join(dataDir, 'uploads') });
  }
  const smtp = await startSmtpServer();
  const config = harnessConfig(dataDir, { smtpUrl: smtp.url, ...overrides });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') });
  const app = createApp({ config, database, mailer, log: () => undefined });
  return {
    app,
    database,
    config,
    smtp,
    dataDir,
    async close() {
      // The app's outbox relay and its queue first: a relay pass or a job retry must not outlive the database.
      await (app as unknown as { queue?: { close(): Promise<void> } }).queue?.close().catch(() => undefined);
      await smtp.close();
      if (backend === 'postgres')
        await database.exec(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`).catch(() => undefined);
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
