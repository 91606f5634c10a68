import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, authTokens } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { mailText } from '../helpers/smtp.ts';

const BACKENDS = await backends();
const json = { 'content-type': 'application/json' };

describe.each(BACKENDS)('auth calls on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => {
    await h?.close();
  });

  const login = (email: string, password = 'Demo1234') => request(h.app).post('/auth/token/login/').send({ email, password });
  const token = async (email: string) => (await login(email)).body.auth_token as string;
  const userCount = async () => (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;

  describe('POST /auth/token/login/', () => {
    it.each(['distributor@demo.test', 'client@demo.test', 'partner@demo.test'])(
      'signs in %s with the demo password',
      async (email) => {
        const res = await login(email);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(['auth_token']);
        expect(res.body.auth_token).toMatch(/^[0-9a-f]{40}$/);
      },
    );

    it('lowercases the email', async () => {
      expect((await login('  Distributor@DEMO.test ')).status).toBe(200);
    });

    it('answers 400 alike for a wrong password and an unknown email', async () => {
      const wrong = await login('client@demo.test', 'Wrong123');
      const unknown = await login('nobody@demo.test', 'Wrong123');
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(wrong.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('answers 401 for a deactivated account and for a sign-up not yet approved', async () => {
      const overdue = await login('overdue@demo.test');
      expect(overdue.status).toBe(401);
      expect(overdue.body.code).toBe('account_deactivated');
      expect((await login('signup1@demo.test')).status).toBe(401);
    });

    it('stores only a hash of the token', async () => {
      const key = await token('client@demo.test');
      const rows = await h.database.db.select({ keyHash: authTokens.keyHash }).from(authTokens);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.keyHash === key)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.keyHash))).toBe(true);
    });

    it.each([
      ['missing fields', {}, { email: ['This field is required.'], password: ['This field is required.'] }],
      ['wrong types', { email: 42, password: true }, { email: ['Must be a string.'], password: ['Must be a string.'] }],
      [
        'a 10 kB email',
        { email: `${'a'.repeat(10_240)}@x.io`, password: 'x' },
        { email: ['Ensure this field has no more than 254 characters.'] },
      ],
      ['an invalid email', { email: 'not-an-email', password: 'x' }, { email: ['Enter a valid email address.'] }],
    ])('answers 400 with field messages for %s', async (_name, body, expected) => {
      const res = await request(h.app).post('/auth/token/login/').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await request(h.app).post('/auth/token/login/').set(json).send('{"email": "a@b.c", ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Malformed JSON in request body.' });
    });
  });

  describe('Authorization: Token <key>', () => {
    it('GET /api/v1/user answers role and profile_url of the caller', async () => {
      const res = await request(h.app)
        .get('/api/v1/user')
        .set('Authorization', `Token ${await token('client@demo.test')}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: 'client@demo.test',
        role: 'client',
        user_type: 'client',
        access: 'client',
        profile_url: null,
      });
    });

    it('tells a market-partner user by user_type', async () => {
      const res = await request(h.app)
        .get('/api/v1/user')
        .set('Authorization', `Token ${await token('partner@demo.test')}`);
      expect(res.body).toMatchObject({ user_type: 'market-partner', access: 'market-partner' });
    });

    it.each([
      ['no header', undefined, 'Authentication credentials were not provided.'],
      ['an unknown token', 'Token 0123456789abcdef0123456789abcdef01234567', 'Invalid token.'],
      ['another scheme', 'Bearer 0123456789abcdef0123456789abcdef01234567', 'Invalid token header.'],
      ['a 10 kB token', `Token ${'a'.repeat(10_240)}`, 'Invalid token header.'],
    ])('answers 401 with %s', async (_name, header, detail) => {
      const req = request(h.app).get('/api/v1/user');
      if (header) req.set('Authorization', header);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail });
    });

    it('answers 403 on every call once the account is deactivated', async () => {
      const key = await token('client2@demo.test');
      const auth = { Authorization: `Token ${key}` };
      expect((await request(h.app).get('/api/v1/user').set(auth)).status).toBe(200);
      await h.database.db
        .update(users)
        .set({ activated: false, deactivatedReason: 'invoice overdue' })
        .where(eq(users.email, 'client2@demo.test'));
      try {
        for (const path of ['/api/v1/user', '/api/v1/device', '/api/v1/device/SP240001']) {
          const res = await request(h.app).get(path).set(auth);
          expect(res.status, path).toBe(403);
          expect(res.body.code).toBe('account_deactivated');
        }
        expect((await login('client2@demo.test')).status).toBe(401);
      } finally {
        await h.database.db
          .update(users)
          .set({ activated: true, deactivatedReason: null })
          .where(eq(users.email, 'client2@demo.test'));
      }
    });

    it('logout revokes the token', async () => {
      const key = await token('distributor@demo.test');
      expect((await request(h.app).post('/auth/token/logout/').set('Authorization', `Token ${key}`)).status).toBe(204);
      expect((await request(h.app).get('/api/v1/user').set('Authorization', `Token ${key}`)).status).toBe(401);
    });
  });

  describe('GET /api/v1/checkUser/{email}', () => {
    it('answers the role of a known email, case-insensitively', async () => {
      const res = await request(h.app).get('/api/v1/checkUser/Client@Demo.test');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ role: 'client', user_type: 'client' });
    });
    it('answers 404 for an unknown email and 400 for a malformed one', async () => {
      expect((await request(h.app).get('/api/v1/checkUser/nobody@demo.test')).status).toBe(404);
      const bad = await request(h.app).get('/api/v1/checkUser/not-an-email');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ non_field_errors: ['Enter a valid email address.'] });
    });
  });

  describe('POST /auth/users/ (sign up)', () => {
    const valid = {
      email: 'New.Distributor@Example.com',
      username: 'New Distributor',
      password: 'Sunny2026',
      company: 'Sunny Supplies',
      phone: '+1 504 555 0199',
      isEnableNotificationEmail: true,
    };

    it('creates an inactive distributor sign-up request with the email lowercased', async () => {
      const res = await request(h.app).post('/auth/users/').send(valid);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ email: 'new.distributor@example.com', username: 'New Distributor', role: 'distributor' });
      const [row] = await h.database.db.select().from(users).where(eq(users.email, 'new.distributor@example.com'));
      expect(row).toMatchObject({
        activated: false,
        role: 'distributor',
        company: 'Sunny Supplies',
        notifyEmail: true,
        notifyPhone: false,
      });
      expect(row!.passwordHash).toMatch(/^scrypt\$/);
      // Not active until a distributor approves it.
      expect((await login('new.distributor@example.com', 'Sunny2026')).status).toBe(401);
    });

    it('answers the field error the client shows for a taken email', async () => {
      const res = await request(h.app)
        .post('/auth/users/')
        .send({ ...valid, email: 'CLIENT@demo.test' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ email: ['user with this email already exists.'] });
    });

    it.each([
      ['missing fields', {}, ['email', 'username', 'password', 'company']],
      [
        'wrong types',
        { ...valid, email: 'x@y.io', username: 5, isEnableNotificationPhone: 'yes' },
        ['username', 'isEnableNotificationPhone'],
      ],
      ['a 10 kB name', { ...valid, email: 'x@y.io', username: 'n'.repeat(10_240) }, ['username']],
      ['a short password', { ...valid, email: 'x@y.io', password: 'short' }, ['password']],
      ['a company role', { ...valid, email: 'x@y.io', role: 'client' }, ['role']],
      ['blank required fields', { ...valid, email: 'x@y.io', username: '   ', company: '' }, ['username', 'company']],
    ])('refuses %s with 400 and creates nothing', async (_name, body, fields) => {
      const before = await userCount();
      const res = await request(h.app).post('/auth/users/').send(body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual([...fields].sort());
      for (const f of fields) expect(res.body[f][0]).toMatch(/\w/);
      expect(await userCount()).toBe(before);
    });

    it.each(['short', 'alllowercase1', 'ALLUPPER123', 'NoDigitsHere'])(
      "holds the reset form's password policy (section 5) for %s, where the client looks first",
      async (password) => {
        const before = await userCount();
        const res = await request(h.app)
          .post('/auth/users/')
          .send({ ...valid, email: 'y@y.io', password });
        expect(res.status).toBe(400);
        expect(res.body.password).toEqual([
          'Password must be at least 8 characters and include uppercase, lowercase, and digit.',
        ]);
        expect(await userCount()).toBe(before);
      },
    );

    it('answers 400 for malformed JSON and creates nothing', async () => {
      const before = await userCount();
      const res = await request(h.app).post('/auth/users/').set(json).send('{"email":');
      expect(res.status).toBe(400);
      expect(await userCount()).toBe(before);
    });
  });

  describe('password reset', () => {
    it('answers 404 for an unknown email and mails nothing', async () => {
      const before = h.smtp.received.length;
      const res = await request(h.app).post('/api/v1/requestResetPassword/nobody@demo.test');
      expect(res.status).toBe(404);
      expect(h.smtp.received.length).toBe(before);
    });

    it('mails a link that opens /?token=..., which sets a new password once', async () => {
      const oldKey = await token('client@demo.test');
      const res = await request(h.app).post('/api/v1/requestResetPassword/Client@Demo.test');
      expect(res.status).toBe(200);
      const mail = h.smtp.received.at(-1)!;
      expect(mail.to).toEqual(['client@demo.test']);
      const link = /http:\/\/portal\.test\/\?token=([0-9a-f]+)/.exec(mailText(mail.raw));
      expect(link).not.toBeNull();
      const resetToken = link![1]!;

      const weak = await request(h.app).post('/api/v1/resetPassword').send({ token: resetToken, password: 'alllowercase1' });
      expect(weak.status).toBe(400);
      expect(weak.body).toEqual({
        password: ['Password must be at least 8 characters and include uppercase, lowercase, and digit.'],
      });
      expect((await login('client@demo.test')).status).toBe(200);

      const ok = await request(h.app).post('/api/v1/resetPassword').send({ token: resetToken, password: 'Newpass123' });
      expect(ok.status).toBe(200);
      expect((await login('client@demo.test')).status).toBe(400);
      expect((await login('client@demo.test', 'Newpass123')).status).toBe(200);
      // Sessions opened with the old password end.
      expect((await request(h.app).get('/api/v1/user').set('Authorization', `Token ${oldKey}`)).status).toBe(401);

      const again = await request(h.app).post('/api/v1/resetPassword').send({ token: resetToken, password: 'Another123' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ token: ['This reset link is invalid or has expired.'] });
      expect((await login('client@demo.test', 'Newpass123')).status).toBe(200);
    });

    it.each([
      ['missing fields', {}],
      ['wrong types', { token: 1, password: 2 }],
      ['a 10 kB token', { token: 'a'.repeat(10_240), password: 'Newpass123' }],
      ['an unknown token', { token: 'deadbeef', password: 'Newpass123' }],
    ])('refuses %s with 400', async (_name, body) => {
      const res = await request(h.app).post('/api/v1/resetPassword').send(body);
      expect(res.status).toBe(400);
    });
  });

  describe('health', () => {
    it('answers /healthz and /readyz', async () => {
      expect((await request(h.app).get('/healthz')).body).toEqual({ status: 'ok' });
      const ready = await request(h.app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', database: 'up' });
    });
  });
});

describe('login rate limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite', { loginLimit: { perEmail: 3, perAddress: 5, windowSeconds: 600 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('blocks an email after repeated failures with 429 and Retry-After, even with the right password', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Wrong1234' })).status,
      ).toBe(400);
    }
    const blocked = await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(500);
    expect(blocked.body.detail).toMatch(/^Too many login attempts/);
  });

  it('blocks an address that sprays many emails', async () => {
    for (let i = 0; i < 2; i++) {
      await request(h.app)
        .post('/auth/token/login/')
        .send({ email: `spray${i}@demo.test`, password: 'Wrong1234' });
    }
    // 3 failures above + 2 here = the address limit of 5.
    const res = await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 from /readyz', async () => {
    const h = await startHarness('pglite', {}, { seed: false });
    await h.database.close();
    const res = await request(h.app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: 'down' });
    await h.close();
  });
});

describe('maintenance credential and client settings', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite', { googleMapsApiKey: undefined });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lets the configured maintenance credential read everything and change nothing', async () => {
    const auth = { Authorization: `Token ${h.config.maintenanceToken}` };
    const list = await request(h.app).get('/api/v1/device').set(auth);
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(60);
    const write = await request(h.app).post('/api/v1/setPauseDevice/SP240001').set(auth).send({ isPause: true });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ detail: 'The maintenance credential is read-only.' });
    expect((await request(h.app).get('/api/v1/device').set('Authorization', 'Token 0000000000aaaaaaaaaa')).status).toBe(401);
  });

  it('answers the client settings with no key by default (the offline map)', async () => {
    const key = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body
      .auth_token;
    const res = await request(h.app).get('/api/v1/clientConfig').set('Authorization', `Token ${key}`);
    expect(res.body).toEqual({ googleMapsApiKey: null, mapStyleUrl: null });
  });
});
