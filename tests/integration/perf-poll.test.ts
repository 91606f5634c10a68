import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@fleet/shared';
import { pollNudger, redisPollState, redisWatchRegistry, startPollers } from '@fleet/workers';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const redisUp = await redisAvailable();

/**
 * Issue 16: a portal write reaches watchers on another process within 1 s (the write nudges the poller
 * that owns the subject, through Redis), while check-ins keep the spec's periods; and polling costs at
 * most 2 Redis calls per watched subject per period per process.
 */
describe.skipIf(!redisUp)('a portal write reaches another process within a second', () => {
  let h: Harness;
  const servers: { server: http.Server; base: string; rt: Awaited<ReturnType<typeof startRealtime>> }[] = [];
  const nudgers: ReturnType<typeof pollNudger>[] = [];
  let token = '';
  let secret = '';
  const SERIAL = 'SP240005';

  beforeAll(async () => {
    h = await startHarness('pglite');
    const prefix = `test:${crypto.randomBytes(4).toString('hex')}:`;
    for (let i = 0; i < 2; i++) {
      // Two processes as main.ts builds them over one database and one Redis, with the spec's periods (10/15/20 s).
      const nudges = pollNudger({ redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
      nudgers.push(nudges);
      const app = createApp({
        config: h.config,
        database: h.database,
        mailer: createMailer({ from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
        log: () => undefined,
        nudges,
      });
      const server = http.createServer(app);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const rt = await startRealtime(server, {
        db: h.database.db,
        auth: app.auth,
        serviceToken: h.config.serviceToken,
        deviceApiUrl: base,
        redisUrl: TEST_REDIS_URL,
        redisPrefix: prefix,
        nudges: nudges.source,
      });
      servers.push({ server, base, rt });
    }
    token = (
      await request(servers[0]!.base).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })
    ).body.auth_token;
    secret = (await request(servers[0]!.base).post(`/api/v1/deviceSecret/${SERIAL}`).set('Authorization', `Token ${token}`)).body
      .secret;
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.rt.close();
      s.server.close();
    }
    for (const n of nudgers) await n.close();
    await h?.close();
  });

  /** A socket on process B, recording the device:changed patches it hears and when. */
  async function listenOnB() {
    const c: Client = connect(servers[1]!.base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      c.on('connect', () => resolve());
      c.on('connect_error', reject);
    });
    const heard: { patch: Record<string, unknown>; at: number }[] = [];
    c.on('device:changed', (p) => heard.push({ patch: p.patch, at: Date.now() }));
    return { c, heard };
  }

  it('a pause made through REST on A reaches a socket on B within 1 s, every time; a check-in waits for the period', async () => {
    const { c: b, heard } = await listenOnB();
    expect(await new Promise((resolve) => b.emit('subscribe', { topic: 'device', serial: SERIAL }, resolve))).toMatchObject({
      ok: true,
    });
    await sleep(1500); // the first poll takes the snapshot

    const delays: number[] = [];
    let paused = (await request(servers[0]!.base).get(`/api/v1/device/${SERIAL}`).set('Authorization', `Token ${token}`)).body
      .is_pause as boolean;
    for (let i = 0; i < 4; i++) {
      paused = !paused;
      const from = heard.length;
      const res = await request(servers[0]!.base)
        .post(`/api/v1/setPauseDevice/${SERIAL}`)
        .set('Authorization', `Token ${token}`)
        .send({ isPause: paused });
      // Counted from the write's answer: the change is made (stored and announced) then. On a loaded CI
      // host the embedded database's write itself took part of the second (a delay of 1,060 ms from the
      // request's start). A watcher may hear it before the answer reaches the test: a delay below 0.
      const t = Date.now();
      expect(res.status).toBe(200);
      while (!heard.slice(from).some((e) => e.patch.is_pause === paused) && Date.now() - t < 3000) await sleep(10);
      const event = heard.slice(from).find((e) => e.patch.is_pause === paused);
      expect(event, `pause ${i} heard`).toBeDefined();
      delays.push(event!.at - t);
      await sleep(200);
    }
    console.log(`portal write -> socket on the other process: ${delays.join(', ')} ms`);
    for (const d of delays) expect(d).toBeLessThan(1000);

    // A device check-in nudges nothing: with a 10 s period it is not heard within 2 s (unless the period falls then).
    const from = heard.length;
    const checkedAt = Date.now();
    const res = await request(servers[0]!.base)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`${SERIAL}:${secret}`).toString('base64')}`)
      .send({ sentAt: new Date().toISOString(), signalQuality: 7 });
    expect(res.status).toBe(200);
    while (!heard.slice(from).some((e) => e.patch.signal_quality === 7) && Date.now() - checkedAt < 11_000) await sleep(20);
    const checkin = heard.slice(from).find((e) => e.patch.signal_quality === 7);
    expect(checkin).toBeDefined();
    // The period runs from the last (nudged) poll: the check-in is heard at that poll's period, not at once.
    expect(checkin!.at - checkedAt).toBeGreaterThan(5000);
    b.close();
  }, 30_000);

  it('brand assignment and exclusive-device changes made on A reach a device watcher and a card watcher on B within 1 s', async () => {
    const SERIAL2 = 'SP240007';
    const auth = { Authorization: `Token ${token}` };
    const socket = async (subscription: Parameters<ClientToServerEvents['subscribe']>[0]) => {
      const { c, heard } = await listenOnB();
      const polls = () => servers.reduce((n, s) => n + s.rt.counters.total(subscription.topic), 0);
      const before = polls();
      expect(await new Promise((resolve) => c.emit('subscribe', subscription, resolve))).toMatchObject({ ok: true });
      // The first poll of the subject takes its snapshot; a change after it is what the diff finds.
      const t = Date.now();
      while (polls() === before && Date.now() - t < 5000) await sleep(20);
      expect(polls()).toBeGreaterThan(before);
      return { c, heard };
    };
    const panel = await socket({ topic: 'device', serial: SERIAL2 });
    const cards = await socket({ topic: 'deviceCards', serials: [SERIAL2] });

    /** Makes the write on A, then waits until both watchers on B heard a patch that `seen` accepts; answers the delays. */
    async function heardWithin(write: () => Promise<{ status: number }>, seen: (patch: Record<string, unknown>) => boolean) {
      const from = [panel.heard.length, cards.heard.length];
      const answered = await write();
      // From the write's answer, as above.
      const t = Date.now();
      expect(answered.status).toBe(200);
      const found = () => [panel, cards].map((w, i) => w.heard.slice(from[i]).find((e) => seen(e.patch)));
      while (found().some((e) => !e) && Date.now() - t < 3000) await sleep(10);
      return found().map((e) => (e ? e.at - t : Infinity));
    }

    const device = (await request(servers[0]!.base).get(`/api/v1/device/${SERIAL2}`).set(auth)).body as {
      brand_name: string | null;
    };
    const brands = (await request(servers[0]!.base).get('/api/v1/brand').set(auth)).body as { id: number; name: string }[];
    const other = brands.find((b) => b.name !== device.brand_name)!;
    const original = brands.find((b) => b.name === device.brand_name)!;
    const delays: Record<string, number[]> = {};
    delays['brand assigned'] = await heardWithin(
      () =>
        request(servers[0]!.base)
          .post('/api/v1/assignBrandToDevice')
          .set(auth)
          .send({ brandId: other.id, deviceSerials: [SERIAL2] }),
      (p) => p.brand_name === other.name,
    );
    type Partners = { company: string }[];
    delays['exclusive device added'] = await heardWithin(
      () =>
        request(servers[0]!.base)
          .post('/api/v1/addExclusiveDevices/partner@demo.test')
          .set(auth)
          .send({ deviceSerials: [SERIAL2] }),
      (p) => Array.isArray(p.market_partners) && (p.market_partners as Partners).some((m) => m.company === 'Big Easy Events'),
    );
    delays['exclusive device removed'] = await heardWithin(
      () =>
        request(servers[0]!.base)
          .post('/api/v1/removeExclusiveDevices/partner@demo.test')
          .set(auth)
          .send({ deviceSerials: [SERIAL2] }),
      (p) => Array.isArray(p.market_partners) && !(p.market_partners as Partners).some((m) => m.company === 'Big Easy Events'),
    );
    delays['brand assigned back'] = await heardWithin(
      () =>
        request(servers[0]!.base)
          .post('/api/v1/assignBrandToDevice')
          .set(auth)
          .send({ brandId: original.id, deviceSerials: [SERIAL2] }),
      (p) => p.brand_name === original.name,
    );
    console.log(
      `portal write -> device and card watchers on the other process: ${Object.entries(delays)
        .map(([k, [a, b]]) => `${k} ${a} / ${b} ms`)
        .join('; ')}`,
    );
    for (const [write, [toPanel, toCard]] of Object.entries(delays)) {
      expect(toPanel, `${write}: device watcher`).toBeLessThan(1000);
      expect(toCard, `${write}: card watcher`).toBeLessThan(1000);
    }
    panel.c.close();
    cards.c.close();
  }, 30_000);
});

describe.skipIf(!redisUp)('poll scheduling cost in Redis', () => {
  const SUBJECTS = 300;
  const PERIOD = 1000;
  const PERIODS = 8;

  /** A Redis client that counts the commands it sends (a MULTI's commands count one each). */
  function countingRedis(prefix: string) {
    const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, maxRetriesPerRequest: 3 });
    let calls = 0;
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: Parameters<typeof send>[0], stream?: Parameters<typeof send>[1]) => {
      calls++;
      return send(command, stream);
    }) as typeof redis.sendCommand;
    return { redis, calls: () => calls };
  }

  it(`${SUBJECTS} watched devices and their cards on two pollers: each polled once per period in all, at most 2 Redis calls per subject per period per process, and the survivor takes over`, async () => {
    const prefix = `test:${crypto.randomBytes(4).toString('hex')}:`;
    const server = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
    const watches = redisWatchRegistry(server, 'server-1');
    const serials = Array.from({ length: SUBJECTS }, (_, i) => `SP9${String(i).padStart(5, '0')}`);
    for (const serial of serials) await watches.add('device', serial);
    // The same serials' cards: subjects of their own, read in filtered list calls (poller.ts, CARDS_PER_GET).
    for (const serial of serials) await watches.add('deviceCards', serial);
    let cardGets = 0;
    let cardsRead = 0;

    const gets = new Map<string, number>();
    const pollers = ['a', 'b'].map((name) => {
      const counted = countingRedis(prefix);
      const registry = redisWatchRegistry(counted.redis, `poller-${name}`);
      const polls = startPollers({
        registry,
        state: redisPollState(counted.redis, { processId: `poller-${name}`, leaseMs: 3 * PERIOD }),
        async get(p) {
          const cards = /^\/api\/v1\/device\?serials=(.*)$/.exec(p);
          if (cards) {
            const wanted = decodeURIComponent(cards[1]!).split(',');
            cardGets++;
            cardsRead += wanted.length;
            return { status: 200, body: wanted.map((serial) => ({ serial, is_pause: false })) };
          }
          gets.set(p, (gets.get(p) ?? 0) + 1);
          return { status: 200, body: { serial: p.split('/').pop(), is_pause: false } };
        },
        emit: () => undefined,
        countPoll: () => undefined,
        periods: { device: PERIOD, deviceCards: PERIOD },
        tickMs: 100,
      });
      return { name, counted, registry, polls };
    });

    await sleep(PERIOD * 3); // shards shared out, every subject's first poll made
    const callsBefore = pollers.map((p) => p.counted.calls());
    const getsBefore = [...gets.values()].reduce((a, b) => a + b, 0);
    const [cardGetsBefore, cardsReadBefore] = [cardGets, cardsRead];
    await sleep(PERIOD * PERIODS);
    // Subjects: each serial's device and its card.
    const perSubjectPerPeriod = pollers.map((p, i) => (p.counted.calls() - callsBefore[i]!) / (2 * SUBJECTS) / PERIODS);
    const polled = [...gets.values()].reduce((a, b) => a + b, 0) - getsBefore;
    const cardsPerPeriod = (cardsRead - cardsReadBefore) / SUBJECTS / PERIODS;
    const cardCallsPerPeriod = (cardGets - cardGetsBefore) / PERIODS;
    console.log(
      `Redis calls per watched subject per period: ${perSubjectPerPeriod.map((c) => c.toFixed(3)).join(' and ')} (two pollers, ${SUBJECTS} devices and ${SUBJECTS} cards); ` +
        `polls per device per period in all: ${(polled / SUBJECTS / PERIODS).toFixed(2)}; reads per card per period: ${cardsPerPeriod.toFixed(2)} in ${cardCallsPerPeriod.toFixed(1)} list calls; owned ${pollers.map((p) => p.polls.owned()).join(' + ')}`,
    );
    for (const c of perSubjectPerPeriod) expect(c).toBeLessThanOrEqual(2);
    // Once per period in total (a tick early or late at either end), never once per process.
    expect(polled / SUBJECTS / PERIODS).toBeGreaterThan(0.85);
    expect(polled / SUBJECTS / PERIODS).toBeLessThan(1.2);
    // Cards likewise, a few filtered list calls per period (each process reads its own share in calls of CARDS_PER_GET).
    expect(cardsPerPeriod).toBeGreaterThan(0.85);
    expect(cardsPerPeriod).toBeLessThan(1.2);
    expect(cardCallsPerPeriod).toBeLessThanOrEqual(6);
    // Both processes share the work.
    for (const p of pollers) expect(p.polls.owned()).toBeGreaterThan((2 * SUBJECTS) / 5);

    // One poller stops without handing over (a crash): the other takes every subject within the lease.
    const [gone, survivor] = pollers;
    gone!.counted.redis.disconnect();
    await gone!.polls.stop().catch(() => undefined);
    await sleep(PERIOD * 3 + 2000);
    const mark = new Map(gets);
    await sleep(PERIOD * 2);
    const stale = serials.filter((s) => (gets.get(`/api/v1/device/${s}`) ?? 0) <= (mark.get(`/api/v1/device/${s}`) ?? 0));
    expect(stale).toEqual([]);
    expect(survivor!.polls.owned()).toBe(2 * SUBJECTS);

    await survivor!.polls.stop();
    await survivor!.registry.close();
    survivor!.counted.redis.disconnect();
    await watches.close();
    server.disconnect();
  }, 40_000);
});
