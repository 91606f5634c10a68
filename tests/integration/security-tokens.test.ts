import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: API tokens expire. A token unused for the idle time (TOKEN_IDLE_HOURS, 7 days by default)
 * stops working, each use extends it (sliding), and none outlives the maximum age (TOKEN_MAX_DAYS, 30)
 * however much it is used. Here the idle time is 1.5 s and the maximum age 5 s.
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
  const login = async () => (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body.auth_token as string;
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
});
