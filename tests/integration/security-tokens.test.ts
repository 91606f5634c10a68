import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, SessionEndReason } from '@fleet/shared';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: API tokens expire. A token unused for the idle time (TOKEN_IDLE_HOURS, 7 days by default)
 * stops working, each use extends it (sliding), and none outlives the maximum age (TOKEN_MAX_DAYS, 30)
 * however much it is used. A socket opened with a token that expires is told `session:ended { reason:
 * 'expired' }` and disconnected when it expires (not only when it next subscribes). Here the idle time is
 * 1.5 s and the maximum age 5 s.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('token expiry (sliding, with a maximum age)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite', { sessionTtl: { idleHours: 1.5 / 3600, maxDays: 5 / 86_400 } });
  });
  afterAll(async () => {
    await h?.close();
  });
  const login = async () =>
    (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body
      .auth_token as string;
  const me = (token: string) => request(h.app).get('/api/v1/user').set('Authorization', `Token ${token}`);

  it('a token used within the idle time keeps working; one left idle expires, and is gone for good', async () => {
    const token = await login();
    for (let i = 0; i < 3; i++) {
      expect((await me(token)).status).toBe(200);
      await sleep(900);
    }
    // 2.7 s after sign-in, longer than the idle time: it slid with each use.
    expect((await me(token)).status).toBe(200);
    await sleep(1800);
    const expired = await me(token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: 'Session expired.' });
    expect((await me(token)).body).toEqual({ detail: 'Invalid token.' });
  });

  it('no token outlives the maximum age, however often it is used', async () => {
    const token = await login();
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 8000) {
      status = (await me(token)).status;
      if (status === 200) await sleep(500);
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeGreaterThan(4500);
  }, 20_000);

  it('a socket whose token expires is told and disconnected then; one whose token is in use stays', async () => {
    const server = http.createServer(h.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rt = await startRealtime(server, {
      db: h.database.db,
      auth: (h.app as unknown as { auth: never }).auth,
      serviceToken: h.config.serviceToken,
      deviceApiUrl: base,
    });
    try {
      const open = async (token: string) => {
        const c: Socket<ServerToClientEvents, ClientToServerEvents> = connect(base, {
          path: '/socket.io',
          auth: { token },
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        const seen = { ended: [] as SessionEndReason[], disconnect: '' };
        c.on('session:ended', ({ reason }) => seen.ended.push(reason));
        c.on('disconnect', (why) => void (seen.disconnect = why));
        await new Promise<void>((resolve, reject) => {
          c.on('connect', () => resolve());
          c.on('connect_error', reject);
        });
        return { c, seen };
      };
      const [idle, used] = [await login(), await login()];
      const a = await open(idle);
      const b = await open(used);
      const opened = Date.now();
      // Keep one token in use over REST; leave the other alone.
      while (Date.now() - opened < 2500) {
        expect((await me(used)).status).toBe(200);
        await sleep(400);
      }
      expect(a.seen.ended).toEqual(['expired']);
      expect(a.seen.disconnect).toBe('io server disconnect');
      expect(b.seen.ended).toEqual([]);
      expect(b.c.connected).toBe(true);
      // Left alone now, the used one expires too, and its socket ends with it.
      await expect.poll(() => b.seen.disconnect, { timeout: 4000 }).toBe('io server disconnect');
      expect(b.seen.ended).toEqual(['expired']);
      a.c.close();
      b.c.close();
    } finally {
      await rt.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 20_000);
});
