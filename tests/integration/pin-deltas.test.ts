import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDevicePin, type ClientToServerEvents, type ServerToClientEvents, type SubscribeAck } from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
type Delta = Parameters<ServerToClientEvents['pins:changed']>[0];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SERIAL = 'SP240001';

/**
 * Pin deltas (issue 46): a check-in or a portal write that changes a pin reaches the `pins` subscribers whose
 * scope holds the device, from the change path (no poller), and nobody else.
 */
describe('pin deltas from the change path', () => {
  let h: Harness;
  let base = '';
  let server: http.Server;
  let rt: Awaited<ReturnType<typeof startRealtime>>;
  const token: Record<string, string> = {};
  let secret = '';
  const sockets: Client[] = [];

  beforeAll(async () => {
    h = await startHarness('pglite');
    const app = createApp({
      config: h.config,
      database: h.database,
      mailer: createMailer({ from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
      log: () => undefined,
    });
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rt = await startRealtime(server, {
      db: h.database.db,
      auth: app.auth,
      serviceToken: h.config.serviceToken,
      deviceApiUrl: base,
      pinChanges: app.pinChanges.source,
    });
    for (const who of ['distributor', 'client', 'client2', 'partner'])
      token[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    secret = (await request(h.app).post(`/api/v1/deviceSecret/${SERIAL}`).set('Authorization', `Token ${token.distributor}`)).body
      .secret;
  });
  afterAll(async () => {
    for (const c of sockets) c.close();
    await rt?.close();
    await h?.close();
  });

  async function listener(who: string) {
    const c: Client = connect(base, {
      path: '/socket.io',
      auth: { token: token[who] },
      transports: ['websocket'],
      forceNew: true,
    });
    sockets.push(c);
    await new Promise<void>((resolve, reject) => {
      c.on('connect', () => resolve());
      c.on('connect_error', reject);
    });
    const heard: Delta[] = [];
    c.on('pins:changed', (p) => heard.push(p));
    const ack = await new Promise<SubscribeAck>((resolve) => c.emit('subscribe', { topic: 'pins' }, resolve));
    return { ack, heard };
  }
  const sees = async (who: string) =>
    (await request(h.app).get(`/api/v1/device/${SERIAL}`).set('Authorization', `Token ${token[who]}`)).status === 200;

  it('a check-in that changes a pin reaches subscribers in scope, not those out of it; an unchanged pin is not sent again', async () => {
    const who = ['distributor', 'client', 'client2', 'partner'];
    const inScope = new Map<string, boolean>();
    for (const w of who) inScope.set(w, await sees(w));
    expect(inScope.get('distributor')).toBe(true);
    expect([...inScope.values()]).toContain(false);
    const ears = new Map<string, Awaited<ReturnType<typeof listener>>>();
    for (const w of who) {
      const l = await listener(w);
      expect(l.ack, w).toMatchObject({ ok: true });
      ears.set(w, l);
    }
    // The device went offline without a change the push server heard of; its check-in brings it online.
    await h.database.db.execute(sql`update devices set is_online = false where serial = ${SERIAL}`);
    const checkin = () =>
      request(base)
        .post('/device/v1/checkin')
        .set('Authorization', `Basic ${Buffer.from(`${SERIAL}:${secret}`).toString('base64')}`)
        .send({ sentAt: new Date().toISOString(), batteries: [{ at: new Date().toISOString(), volt: 3.9, percent: 80 }] });
    expect((await checkin()).status).toBe(200);
    const until = Date.now() + 5000;
    while (Date.now() < until && !ears.get('distributor')!.heard.length) await sleep(25);
    await sleep(500);
    for (const w of who) {
      const heard = ears.get(w)!.heard;
      if (!inScope.get(w)) {
        expect(heard, `${w} is outside the device's scope`).toEqual([]);
        continue;
      }
      expect(heard, w).toHaveLength(1);
      expect(heard[0]!.removed).toEqual([]);
      expect(heard[0]!.upserts.map((p) => p[0])).toEqual([SERIAL]);
      expect(decodeDevicePin(heard[0]!.upserts[0]!).is_online).toBe(true);
    }
    // The same check-in again changes no pin field: nothing is sent.
    expect((await checkin()).status).toBe(200);
    await sleep(800);
    for (const w of who) expect(ears.get(w)!.heard.length, w).toBe(inScope.get(w) ? 1 : 0);
    // A portal write (pause) changes the pin: it reaches the same subscribers.
    // Through this app (the harness has its own app, whose writes this push server does not hear).
    await request(base)
      .post(`/api/v1/setPauseDevice/${SERIAL}`)
      .set('Authorization', `Token ${token.distributor}`)
      .send({ isPause: true });
    const until2 = Date.now() + 5000;
    while (Date.now() < until2 && ears.get('distributor')!.heard.length < 2) await sleep(25);
    await sleep(300);
    for (const w of who) {
      const heard = ears.get(w)!.heard;
      expect(heard.length, w).toBe(inScope.get(w) ? 2 : 0);
      if (inScope.get(w)) expect(decodeDevicePin(heard[1]!.upserts[0]!).is_pause).toBe(true);
    }
  });
});
