import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeAck } from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const PERIOD = 600;
const periods = { device: PERIOD, deviceCards: PERIOD, simLog: PERIOD, overview: PERIOD };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const redisUp = await redisAvailable();

async function serve(app: http.RequestListener) {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Sockets a test opened: closed after it even when it fails, so its subscriptions never poll under the next test's counts. */
const opened: Client[] = [];
afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});
function client(base: string, token?: string, transport: 'websocket' | 'polling' = 'websocket'): Client {
  const c: Client = connect(base, {
    path: '/socket.io',
    auth: token ? { token } : {},
    transports: [transport],
    reconnection: false,
    forceNew: true,
  });
  opened.push(c);
  return c;
}
const subscribe = (c: Client, sub: Parameters<ClientToServerEvents['subscribe']>[0]) =>
  new Promise<SubscribeAck>((resolve) => c.emit('subscribe', sub, resolve));
const connected = (c: Client) =>
  new Promise<void>((resolve, reject) => {
    c.on('connect', () => resolve());
    c.on('connect_error', reject);
  });

describe.each(['websocket', 'polling'] as const)('push server in process (%s transport)', (transport) => {
  let h: Harness;
  let base = '';
  let server: http.Server;
  let rt: Awaited<ReturnType<typeof startRealtime>>;
  const token: Record<string, string> = {};
  let secret = '';
  const SERIAL = 'SP240002';

  beforeAll(async () => {
    h = await startHarness('pglite');
    // The app as main.ts builds it: GET /metrics shows the pollers' counters.
    const app = createApp({
      config: h.config,
      database: h.database,
      mailer: createMailer({ from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
      log: () => undefined,
      metrics: () => rt?.counters.prometheus() ?? '',
    });
    ({ server, base } = await serve(app));
    rt = await startRealtime(server, {
      db: h.database.db,
      auth: app.auth,
      serviceToken: h.config.serviceToken,
      deviceApiUrl: base,
      periods,
      tickMs: 50,
    });
    for (const who of ['distributor', 'client']) {
      token[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
    secret = (await request(h.app).post(`/api/v1/deviceSecret/${SERIAL}`).set('Authorization', `Token ${token.distributor}`)).body
      .secret;
  });
  afterAll(async () => {
    await rt?.close();
    await h?.close();
  });

  /** n sockets of one user, each subscribed to one subscription (the acknowledgement is returned beside each). */
  const subscribedSockets = (n: number, who: string, sub: Parameters<ClientToServerEvents['subscribe']>[0]) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const c = client(base, token[who], transport);
        await connected(c);
        return { c, ack: await subscribe(c, sub) };
      }),
    );
  /** One upstream poll per period (give or take a tick at either end) over five periods. */
  async function expectOnePollPerPeriod(topic: 'device' | 'overview') {
    const before = rt.counters.total(topic);
    await sleep(PERIOD * 5);
    const polls = rt.counters.total(topic) - before;
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(polls).toBeLessThanOrEqual(6);
  }

  const checkin = (percent: number) =>
    request(base)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`${SERIAL}:${secret}`).toString('base64')}`)
      .send({ sentAt: new Date().toISOString(), batteries: [{ at: new Date().toISOString(), volt: 3.9, percent }] });

  it('refuses a socket without a valid token', async () => {
    const c = client(base, undefined, transport);
    await expect(connected(c)).rejects.toThrow(/credentials were not provided/);
    const d = client(base, 'f'.repeat(40), transport);
    await expect(connected(d)).rejects.toThrow(/Invalid token/);
    c.close();
    d.close();
  });

  it('refuses a subscription outside the caller scope, and the refused socket hears nothing', async () => {
    const c = client(base, token.client, transport);
    await connected(c);
    const outside = await subscribe(c, { topic: 'device', serial: 'SP240030' });
    expect(outside).toEqual({ ok: false, error: 'No device with this serial.', refused: ['SP240030'] });
    const heard: unknown[] = [];
    c.on('device:changed', (p) => heard.push(p));
    const inside = await subscribe(c, { topic: 'device', serial: 'SP240001' });
    expect(inside).toEqual({ ok: true, subscribed: ['device:SP240001'] });
    expect(await subscribe(c, { topic: 'deviceCards', serials: ['SP240001', 'SP240030'] })).toMatchObject({
      ok: false,
      refused: ['SP240030'],
    });
    expect(await subscribe(c, { topic: 'device', serial: 'x'.repeat(10_000) } as never)).toEqual({
      ok: false,
      error: 'Invalid subscription.',
    });
    // A change on the refused device reaches nobody in this socket.
    await request(h.app)
      .post('/api/v1/setPauseDevice/SP240030')
      .set('Authorization', `Token ${token.distributor}`)
      .send({ isPause: true });
    await sleep(PERIOD * 3);
    expect(heard.filter((p) => (p as { serial: string }).serial === 'SP240030')).toEqual([]);
    c.close();
  });

  it('pushes a change found by the poll within the period plus 300 ms, and nothing when nothing changed', async () => {
    const c = client(base, token.distributor, transport);
    await connected(c);
    const events: { serial: string; patch: Record<string, unknown>; at: number }[] = [];
    c.on('device:changed', (p) => events.push({ ...p, at: Date.now() }));
    expect(await subscribe(c, { topic: 'device', serial: SERIAL })).toMatchObject({ ok: true });
    await sleep(PERIOD * 2); // the first poll takes the snapshot
    expect(events).toEqual([]);
    expect((await checkin(37)).status).toBe(200);
    // The change is in the database once the check-in is answered: the period counts from there (the
    // check-in's own time, hundreds of ms on a loaded host's embedded database, is not the push's).
    const changedAt = Date.now();
    while (!events.length && Date.now() - changedAt < PERIOD * 4) await sleep(20);
    expect(events).toHaveLength(1);
    expect(events[0]!.patch).toMatchObject({ battery_percent: 37 });
    expect(events[0]!.at - changedAt).toBeLessThanOrEqual(PERIOD + 300);
    await sleep(PERIOD * 3);
    expect(events).toHaveLength(1);
    c.close();
  });

  it('many sockets watching one device cause one upstream poll per period, and polling stops when the last leaves', async () => {
    const sockets = await subscribedSockets(25, 'distributor', { topic: 'device', serial: 'SP240004' });
    await expectOnePollPerPeriod('device');
    for (const { c } of sockets) c.close();
    await sleep(PERIOD);
    const after = rt.counters.total('device');
    await sleep(PERIOD * 3);
    expect(rt.counters.total('device')).toBe(after);
    const metrics = await request(base).get('/metrics');
    expect(metrics.text).toMatch(/upstream_polls_total\{topic="device"\} \d+/);
  });

  it('pushes pending-flag changes and overview counts', async () => {
    const c = client(base, token.distributor, transport);
    await connected(c);
    const flags: unknown[] = [];
    const overview: Record<string, number | null>[] = [];
    c.on('pendingFlags:changed', (p) => flags.push(p));
    c.on('overview:changed', (p) => overview.push(p));
    await subscribe(c, { topic: 'deviceCards', serials: ['SP240005', 'SP240006'] });
    await subscribe(c, { topic: 'overview' });
    await sleep(PERIOD * 2);
    await request(h.app)
      .post('/api/v1/setPauseDevice/SP240006')
      .set('Authorization', `Token ${token.distributor}`)
      .send({ isPause: true });
    await sleep(PERIOD * 3);
    expect(flags).toEqual([
      expect.objectContaining({ serial: 'SP240006', pending_flags: expect.objectContaining({ others: true }) }),
    ]);
    expect(overview.at(-1)).toHaveProperty('pause_devices');
    expect(overview.every((p) => p.location === null)).toBe(true);
    c.close();
  });

  it("pushes one county's overview to that county's room only, polled once per period for any number of sockets; unsubscribe stops it", async () => {
    const auth = { Authorization: `Token ${token.distributor}` };
    const list = (await request(h.app).get('/api/v1/device').set(auth)).body as {
      serial: string;
      location_id: number | null;
      is_pause: boolean;
    }[];
    const used = new Set(['SP240001', 'SP240002', 'SP240004', 'SP240005', 'SP240006', 'SP240030']);
    const device = list.find((d) => d.location_id && !d.is_pause && !used.has(d.serial))!;
    const county = device.location_id!;
    const overviewOf = async (query: string) =>
      (await request(h.app).get(`/api/v1/overview${query}`).set(auth)).body as Record<string, number | null>;
    const changed = (before: Record<string, number | null>, after: Record<string, number | null>) =>
      Object.fromEntries(Object.entries(after).filter(([k, v]) => before[k] !== v));
    const setPause = (isPause: boolean) =>
      request(h.app).post(`/api/v1/setPauseDevice/${device.serial}`).set(auth).send({ isPause });

    // Many sockets on one county: one subject, one upstream poll per period.
    const many = await subscribedSockets(10, 'distributor', { topic: 'overview', location: county });
    for (const { ack } of many)
      expect(ack).toEqual({ ok: true, subscribed: [expect.stringMatching(new RegExp(`^overview:\\d+:${county}$`))] });
    await sleep(PERIOD);
    expect(await rt.registry.watched('overview')).toEqual([expect.stringMatching(new RegExp(`^\\d+:${county}$`))]);
    await expectOnePollPerPeriod('overview');
    for (const { c } of many) c.close();

    // One socket overall, one on the county, one on both.
    const heard: Record<'overall' | 'county' | 'both', Record<string, number | null>[]> = { overall: [], county: [], both: [] };
    const sockets = {} as Record<keyof typeof heard, Client>;
    for (const who of ['overall', 'county', 'both'] as const) {
      const c = (sockets[who] = client(base, token.distributor, transport));
      await connected(c);
      c.on('overview:changed', (p) => heard[who].push(p));
      if (who !== 'county') expect(await subscribe(c, { topic: 'overview' })).toMatchObject({ ok: true });
      if (who !== 'overall') expect(await subscribe(c, { topic: 'overview', location: county })).toMatchObject({ ok: true });
    }
    await sleep(PERIOD * 2); // the first polls take the snapshots
    const [overallBefore, countyBefore] = [await overviewOf(''), await overviewOf(`?location=${county}`)];
    expect((await setPause(true)).status).toBe(200);
    const [overallAfter, countyAfter] = [await overviewOf(''), await overviewOf(`?location=${county}`)];
    await sleep(PERIOD * 3);
    const countyPush = { ...changed(countyBefore, countyAfter), location: county };
    const overallPush = { ...changed(overallBefore, overallAfter), location: null };
    expect(countyPush).toMatchObject({ pause_devices: countyBefore.pause_devices! + 1 });
    expect(heard.county).toEqual([countyPush]);
    expect(heard.overall).toEqual([overallPush]);
    expect(heard.both).toHaveLength(2);
    expect(heard.both).toEqual(expect.arrayContaining([countyPush, overallPush]));

    // Unsubscribing the county stops its pushes; the overall subscription still hears the next change.
    await new Promise((resolve) => sockets.county.emit('unsubscribe', { topic: 'overview', location: county }, resolve));
    await new Promise((resolve) => sockets.both.emit('unsubscribe', { topic: 'overview', location: county }, resolve));
    await sleep(PERIOD);
    expect(await rt.registry.watched('overview')).not.toContainEqual(expect.stringMatching(new RegExp(`:${county}$`)));
    expect((await setPause(false)).status).toBe(200);
    const overallResumed = await overviewOf('');
    await sleep(PERIOD * 3);
    expect(heard.county).toHaveLength(1);
    expect(overallResumed.pause_devices).toBe(overallBefore.pause_devices);
    expect(heard.overall).toEqual([overallPush, { ...changed(overallAfter, overallResumed), location: null }]);
    expect(heard.both.filter((p) => p.location === county)).toHaveLength(1);
    for (const c of Object.values(sockets)) c.close();
  });

  it('refuses an overview location that is not a county id, and the socket keeps working', async () => {
    const c = client(base, token.distributor, transport);
    await connected(c);
    for (const location of [0, -3, 1.5, '4', null, 2 ** 40, Number.NaN]) {
      expect(await subscribe(c, { topic: 'overview', location } as never)).toEqual({
        ok: false,
        error: 'location is a county id.',
      });
    }
    expect(await subscribe(c, { topic: 'overview', location: 999_999 })).toEqual({ ok: false, error: 'No county with this id.' });
    expect(await rt.registry.watched('overview')).not.toContainEqual(expect.stringMatching(/:(999999|0|-3|4|1\.5)$/));
    expect(await subscribe(c, { topic: 'overview' })).toMatchObject({ ok: true });
    c.close();
  });
});

describe.skipIf(!redisUp)('push server across two processes sharing Redis', () => {
  let h: Harness;
  const servers: { server: http.Server; base: string; rt: Awaited<ReturnType<typeof startRealtime>> }[] = [];
  let token = '';
  let secret = '';
  beforeAll(async () => {
    h = await startHarness('pglite');
    const prefix = `test:${crypto.randomBytes(4).toString('hex')}:`;
    const second = createApp({
      config: h.config,
      database: h.database,
      mailer: createMailer({ from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
      log: () => undefined,
    });
    for (const app of [h.app, second]) {
      const { server, base } = await serve(app);
      const rt = await startRealtime(server, {
        db: h.database.db,
        auth: (app as unknown as { auth: never }).auth,
        serviceToken: h.config.serviceToken,
        deviceApiUrl: base,
        periods,
        tickMs: 50,
        redisUrl: TEST_REDIS_URL,
        redisPrefix: prefix,
      });
      servers.push({ server, base, rt });
    }
    token = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
    secret = (await request(h.app).post('/api/v1/deviceSecret/SP240007').set('Authorization', `Token ${token}`)).body.secret;
  });
  afterAll(async () => {
    for (const s of servers) await s.rt.close();
    await h?.close();
  });

  it('polls each subject once per period across both, and delivers to sockets on either', async () => {
    const a = client(servers[0]!.base, token);
    const b = client(servers[1]!.base, token);
    await Promise.all([connected(a), connected(b)]);
    const heardA: unknown[] = [];
    const heardB: unknown[] = [];
    a.on('device:changed', (p) => heardA.push(p));
    b.on('device:changed', (p) => heardB.push(p));
    await subscribe(a, { topic: 'device', serial: 'SP240007' });
    await subscribe(b, { topic: 'device', serial: 'SP240007' });
    const total = () => servers.reduce((n, s) => n + s.rt.counters.total('device'), 0);
    const before = total();
    await sleep(PERIOD * 5);
    const polls = total() - before;
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(polls).toBeLessThanOrEqual(6);
    await request(servers[1]!.base)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`SP240007:${secret}`).toString('base64')}`)
      .send({ sentAt: new Date().toISOString(), signalQuality: 11 });
    await sleep(PERIOD * 3);
    expect(heardA).toEqual([
      expect.objectContaining({ serial: 'SP240007', patch: expect.objectContaining({ signal_quality: 11 }) }),
    ]);
    expect(heardB).toEqual(heardA);
    a.close();
    b.close();
  });
});
