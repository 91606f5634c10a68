import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { openDatabase, type Database } from '../../server/src/db/client.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';

/**
 * Promise (SECURITY.md): a database that refuses connections answers 503 with Retry-After, never a 500.
 * The portal talks to a stand-in PostgreSQL here that answers every startup with the ErrorResponse a real
 * server sends when it will not take a session (protocol 3.0: 'E', length, fields, NUL): the shared test
 * server is never touched. Each refusal is one the sweep or the docs name.
 */
const REFUSALS: [code: string, message: string][] = [
  ['55000', 'database "fleet" is not currently accepting connections'],
  ['57P03', 'the database system is starting up'],
  ['53300', 'sorry, too many clients already'],
  ['28P01', 'password authentication failed for user "fleet"'],
];

function refusingPostgres() {
  let refusal = REFUSALS[0]!;
  let startups = 0;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      startups += 1;
      const [code, message] = refusal;
      const fields = Buffer.concat([
        ...[
          ['S', 'FATAL'],
          ['V', 'FATAL'],
          ['C', code],
          ['M', message],
        ].map(([k, v]) => Buffer.from(`${k}${v}\0`)),
        Buffer.from([0]),
      ]);
      const length = Buffer.alloc(4);
      length.writeInt32BE(fields.length + 4);
      socket.end(Buffer.concat([Buffer.from('E'), length, fields]));
    });
  });
  return {
    server,
    refuseWith: (r: [string, string]) => (refusal = r),
    get startups() {
      return startups;
    },
  };
}

describe('a database refusing connections', () => {
  const pgStandIn = refusingPostgres();
  let database: Database;
  let app: ReturnType<typeof createApp>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-refusing-'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => pgStandIn.server.listen(0, '127.0.0.1', resolve));
    const { port } = pgStandIn.server.address() as net.AddressInfo;
    database = await openDatabase({ url: `postgres://fleet@127.0.0.1:${port}/fleet`, migrate: false });
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', SECRET_KEY: 'k'.repeat(32) }),
      publicUrl: 'http://portal.test',
    };
    app = createApp({
      config,
      database,
      mailer: createMailer({ from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') }),
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await app?.queue.close().catch(() => undefined);
    await database?.close();
    await new Promise((r) => pgStandIn.server.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(REFUSALS)(
    'answers 503 with Retry-After when PostgreSQL refuses the session with %s, signed in or not',
    async (code, message) => {
      pgStandIn.refuseWith([code, message]);
      const before = pgStandIn.startups;
      const answers = [
        await request(app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' }),
        await request(app).get('/api/v1/device').set('Authorization', 'Token 0123456789abcdef0123456789abcdef01234567'),
        await request(app).get('/api/v1/checkUser/distributor@demo.test'),
      ];
      // The stand-in was asked: the answers come from its refusals, not from a check before the database.
      expect(pgStandIn.startups).toBeGreaterThan(before);
      for (const res of answers) {
        expect({ status: res.status, retryAfter: res.headers['retry-after'], body: res.body }).toEqual({
          status: 503,
          retryAfter: '5',
          body: { detail: 'The service is temporarily unavailable. Try again shortly.' },
        });
      }
      // /readyz says the same.
      expect((await request(app).get('/readyz')).status).toBe(503);
    },
  );
});
