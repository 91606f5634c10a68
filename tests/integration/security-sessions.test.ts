import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, SessionEndReason, SubscribeAck } from '@fleet/shared';
import { eq, inArray } from 'drizzle-orm';
import { createApp } from '../../server/src/app.ts';
import { authTokens, users } from '../../server/src/db/schema.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { sessionHub } from '../../server/src/realtime/sessions.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';
import { mailText } from '../helpers/smtp.ts';

/**
 * Promise: a session that ends (sign-out, password reset, deactivation) ends its sockets at once, in
 * every process: the socket hears `session:ended { reason }`, is disconnected, receives no push, and
 * neither it nor a new socket with the same token can subscribe again.
 */
type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const PERIOD = 400;
const periods = { device: PERIOD, deviceCards: PERIOD, simLog: PERIOD, overview: PERIOD };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const redisUp = await redisAvailable();

async function serve(app: http.RequestListener) {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
function client(base: string, token: string): Client {
  return connect(base, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
}
const connected = (c: Client) =>
  new Promise<void>((resolve, reject) => {
    c.on('connect', () => resolve());
    c.on('connect_error', reject);
  });
const subscribe = (c: Client, sub: Parameters<ClientToServerEvents['subscribe']>[0]) =>
  new Promise<SubscribeAck>((resolve) => c.emit('subscribe', sub, resolve));
/** What a socket went through: the reasons it was told, whether it was disconnected by the server, the pushes after that. */
function watch(c: Client) {
  const seen = { ended: [] as SessionEndReason[], disconnect: '' as string, pushes: 0 };
  c.on('session:ended', ({ reason }) => seen.ended.push(reason));
  c.on('disconnect', (why) => {
    seen.disconnect = why;
  });
  c.on('device:changed', () => {
    seen.pushes += 1;
  });
  return seen;
}
async function until(check: () => boolean, ms = 3000) {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await sleep(20);
  return check();
}
const login = async (base: string, email: string, password = 'Demo1234') =>
  (await request(base).post('/auth/token/login/').send({ email, password })).body.auth_token as string;

async function userId(h: Harness, email: string) {
  const [row] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** One portal process: the app and its push server sharing one session ender, as main.ts builds them. */
async function portal(h: Harness, redis?: { url: string; prefix: string }) {
  const app = createApp({
    config: { ...h.config, redisUrl: redis?.url },
    database: h.database,
    mailer: createMailer({ smtpUrl: h.config.smtpUrl, from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
    sessions: sessionHub({ redisUrl: redis?.url, redisPrefix: redis?.prefix }),
    log: () => undefined,
  });
  const { server, base } = await serve(app);
  const rt = await startRealtime(server, {
    db: h.database.db,
    auth: app.auth,
    sessions: app.sessions,
    serviceToken: h.config.serviceToken,
    deviceApiUrl: base,
    periods,
    tickMs: 50,
    ...(redis ? { redisUrl: redis.url, redisPrefix: redis.prefix } : {}),
  });
  return {
    app,
    base,
    async close() {
      await rt.close();
      app.sessions.close();
      await app.queue.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('sessions end everywhere (one process, no Redis)', () => {
  let h: Harness;
  let p: Awaited<ReturnType<typeof portal>>;
  beforeAll(async () => {
    h = await startHarness('pglite');
    p = await portal(h);
  });
  afterAll(async () => {
    await p?.close();
    await h?.close();
  });

  it('sign-out ends the sockets of that token at once; the same user signed in elsewhere goes on', async () => {
    const token = await login(p.base, 'distributor@demo.test');
    const other = await login(p.base, 'distributor@demo.test');
    const c = client(p.base, token);
    const keep = client(p.base, other);
    await Promise.all([connected(c), connected(keep)]);
    expect(await subscribe(c, { topic: 'device', serial: 'SP240001' })).toMatchObject({ ok: true });
    const seen = watch(c);
    const kept = watch(keep);

    expect((await request(p.base).post('/auth/token/logout/').set('Authorization', `Token ${token}`)).status).toBe(204);
    expect(await until(() => seen.disconnect !== '', 1000)).toBe(true);
    expect(seen.ended).toEqual(['logout']);
    expect(seen.disconnect).toBe('io server disconnect');

    // A push on the device it watched reaches it no more.
    await request(p.base).post('/api/v1/setPauseDevice/SP240001').set('Authorization', `Token ${other}`).send({ isPause: true });
    await sleep(PERIOD * 3);
    expect(seen.pushes).toBe(0);
    // A new socket with the revoked token is refused; the other session's socket still subscribes.
    const again = client(p.base, token);
    await expect(connected(again)).rejects.toThrow(/Invalid token/);
    again.close();
    expect(keep.connected).toBe(true);
    expect(kept.ended).toEqual([]);
    expect(await subscribe(keep, { topic: 'device', serial: 'SP240001' })).toMatchObject({ ok: true });
    await request(p.base).post('/api/v1/setPauseDevice/SP240001').set('Authorization', `Token ${other}`).send({ isPause: false });
    keep.close();
    c.close();
  });

  it('a password reset ends every socket of the user, with the reason password-reset', async () => {
    const tokens = [
      await login(p.base, 'client@demo.test'),
      await login(p.base, 'client@demo.test'),
      await login(p.base, 'client2@demo.test'),
    ];
    const [a, b, stranger] = tokens.map((t) => client(p.base, t)) as [Client, Client, Client];
    await Promise.all([connected(a), connected(b), connected(stranger)]);
    const seen = [watch(a), watch(b)];
    const strangerSeen = watch(stranger);

    expect((await request(p.base).post('/api/v1/requestResetPassword/client@demo.test')).status).toBe(200);
    const link = /\?token=([0-9a-f]+)/.exec(mailText(h.smtp.received.at(-1)!.raw));
    const reset = await request(p.base)
      .post('/api/v1/resetPassword')
      .send({ token: link![1], password: 'Newpass123', confirmPassword: 'Newpass123', password2: 'Newpass123' });
    expect(reset.status).toBe(200);
    expect(await until(() => seen.every((s) => s.disconnect !== ''), 1000)).toBe(true);
    expect(seen.map((s) => s.ended)).toEqual([['password-reset'], ['password-reset']]);
    await sleep(100);
    expect(strangerSeen.ended).toEqual([]);
    expect(stranger.connected).toBe(true);
    for (const c of [a, b, stranger]) c.close();
  });

  it('deactivating an account (ctx.sessions.endUserSessions, as the overdue-invoice job calls it) ends its sockets with the reason deactivated', async () => {
    const token = await login(p.base, 'partner@demo.test');
    const c = client(p.base, token);
    await connected(c);
    const seen = watch(c);
    const user = await userId(h, 'partner@demo.test');
    await p.app.sessions.endUserSessions(user, 'deactivated');
    expect(await until(() => seen.disconnect !== '', 1000)).toBe(true);
    expect(seen.ended).toEqual(['deactivated']);
    c.close();
  });

  it('a socket whose token stopped working outside any notice cannot subscribe: it is told and disconnected', async () => {
    const token = await login(p.base, 'partner2@demo.test');
    const c = client(p.base, token);
    await connected(c);
    const seen = watch(c);
    // Revoke the token in the database only (no sign-out call, so no notice).
    await h.database.db.delete(authTokens).where(inArray(authTokens.userId, [await userId(h, 'partner2@demo.test')]));
    expect(await subscribe(c, { topic: 'overview' })).toEqual({ ok: false, error: 'Your session has ended.' });
    expect(await until(() => seen.disconnect !== '', 1000)).toBe(true);
    expect(seen.ended).toEqual(['expired']);
    c.close();
  });
});

describe.skipIf(!redisUp)('sessions end in every process (Redis adapter)', () => {
  let h: Harness;
  let a: Awaited<ReturnType<typeof portal>>;
  let b: Awaited<ReturnType<typeof portal>>;
  const redis = { url: TEST_REDIS_URL, prefix: `sess-${crypto.randomBytes(4).toString('hex')}:` };
  beforeAll(async () => {
    h = await startHarness('pglite');
    a = await portal(h, redis);
    b = await portal(h, redis);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await h?.close();
  });

  it('sign-out on one process ends the socket held by another', async () => {
    const token = await login(a.base, 'distributor@demo.test');
    const c = client(b.base, token);
    await connected(c);
    const seen = watch(c);
    expect((await request(a.base).post('/auth/token/logout/').set('Authorization', `Token ${token}`)).status).toBe(204);
    expect(await until(() => seen.disconnect !== '', 2000)).toBe(true);
    expect(seen.ended).toEqual(['logout']);
  });

  it("a process without a push server (a job runner) ends a user's sockets through the Redis emitter", async () => {
    const tokens = [await login(a.base, 'client@demo.test'), await login(b.base, 'client@demo.test')];
    const c1 = client(a.base, tokens[0]!);
    const c2 = client(b.base, tokens[1]!);
    await Promise.all([connected(c1), connected(c2)]);
    const seen = [watch(c1), watch(c2)];
    const user = await userId(h, 'client@demo.test');
    const jobProcess = sessionHub({ redisUrl: redis.url, redisPrefix: redis.prefix });
    await jobProcess.endUserSessions(user, 'deactivated');
    expect(await until(() => seen.every((s) => s.disconnect !== ''), 2000)).toBe(true);
    expect(seen.map((s) => s.ended)).toEqual([['deactivated'], ['deactivated']]);
    jobProcess.close();
  });
});
