import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { openDatabase, quoteIdent, type Database } from '../../server/src/db/client.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { seedDemo } from '../../server/src/seed/demo.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../helpers/backends.ts';
import { startHarness } from '../helpers/harness.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * Promise: a database outage answers 503 with Retry-After (never a 500, never a hang), /readyz says so,
 * and the portal serves again once the database is back, without a restart.
 *
 * PostgreSQL: the portal reaches the shared test server through a TCP relay in this test, and the relay
 * is stopped and started again (the shared server itself is never touched). PGlite: the embedded database
 * closed under a running app.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP relay to PostgreSQL that can go down (refusing and cutting connections) and come back on its port. */
function relay(target: { host: string; port: number }) {
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  let port = 0;
  return {
    get port() {
      return port;
    },
    async up() {
      if (server?.listening) return;
      // Outside the ephemeral range, so nothing else is handed this port while the relay is down.
      if (port === 0) port = await freePort();
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', resolve);
      });
      port = (server.address() as net.AddressInfo).port;
    },
    async down() {
      const closed = new Promise((r) => server?.close(r));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const pgUp = await postgresAvailable();

describe.skipIf(!pgUp)('PostgreSQL down and back', () => {
  const target = new URL(TEST_DATABASE_URL);
  const pg = relay({ host: target.hostname, port: Number(target.port || 5432) });
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-pgfault-'));
  let database: Database;
  let app: ReturnType<typeof createApp>;
  let token = '';

  beforeAll(async () => {
    await pg.up();
    const url = new URL(TEST_DATABASE_URL);
    url.host = `127.0.0.1:${pg.port}`;
    // The portal's own schema in the shared test database, reached through the relay.
    database = await openDatabase({ url: url.toString(), schema });
    await seedDemo(database, { uploadsDir: path.join(dataDir, 'uploads'), historyDays: 2 });
    const config = {
      ...loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PORT: '0',
        SECRET_KEY: 'p'.repeat(32),
        MAINTENANCE_TOKEN: 'q'.repeat(32),
      }),
      publicUrl: 'http://portal.test',
    };
    app = createApp({
      config,
      database,
      mailer: createMailer({ from: 'x@y', outboxDir: path.join(dataDir, 'outbox') }),
      log: () => undefined,
    });
    token = (await request(app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
  }, 120_000);
  afterAll(async () => {
    await pg.up().catch(() => undefined);
    await app?.queue.close().catch(() => undefined);
    await database?.exec(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`).catch(() => undefined);
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and 200 again once it is back', async () => {
    const devices = () => request(app).get('/api/v1/device').set('Authorization', `Token ${token}`);
    expect((await devices()).status).toBe(200);

    await pg.down();
    for (const call of [
      devices,
      () => request(app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' }),
      () => request(app).post('/api/v1/setPauseDevice/SP240001').set('Authorization', `Token ${token}`).send({ isPause: true }),
    ]) {
      const started = Date.now();
      const res = await call();
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ detail: 'The service is temporarily unavailable. Try again shortly.' });
      expect(Date.now() - started).toBeLessThan(7000);
    }
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ database: 'down' });

    await pg.up();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await devices()).status;
      if (status !== 200) await sleep(200);
    }
    expect(status).toBe(200);
    expect((await request(app).get('/readyz')).status).toBe(200);
  }, 60_000);
});

describe('PGlite closed under a running app', () => {
  it('answers 503 with Retry-After, not 500', async () => {
    const h = await startHarness('pglite');
    const token = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body
      .auth_token;
    await h.database.close();
    const res = await request(h.app).get('/api/v1/device').set('Authorization', `Token ${token}`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    await h.close().catch(() => undefined);
  }, 60_000);
});
