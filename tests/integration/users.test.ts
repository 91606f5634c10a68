import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientUserSchema, type ClientUser } from '@fleet/shared';
import { users } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

const DISTRIBUTOR = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const PARTNER = 'partner@demo.test';

/** GET /api/v1/myUser: the clients the brand dialog's slots offer (spec section 7). */
describe.each(BACKENDS)('GET /api/v1/myUser on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
    // The seed has no activated client without a brand: two of one company (name order, any case), and
    // a client-role market partner and a pending client sign-up that must not be offered.
    const row = (email: string, username: string, over: Partial<typeof users.$inferInsert> = {}) =>
      ({ email, username, passwordHash: 'x', company: 'Aardvark Amusements', phone: '+1 504 555 0199', role: 'client', userType: 'client', activated: true, ...over }) as typeof users.$inferInsert;
    await h.database.db.insert(users).values([
      row('zoe@aardvark.test', 'Zoe Zed'),
      row('adam@aardvark.test', 'adam apple', { phone: '' }),
      row('mp-client@aardvark.test', 'Mo Partner', { userType: 'market-partner' }),
      row('pending@aardvark.test', 'Pat Pending', { activated: false }),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (email?: string) => {
    const r = request(h.app).get('/api/v1/myUser');
    return email ? r.set({ Authorization: `Token ${keys[email]}` }) : r;
  };

  it('answers a distributor every activated client with its brands, by company then name', async () => {
    const res = await get(DISTRIBUTOR);
    expect(res.status).toBe(200);
    const list = clientUserSchema.array().parse(res.body) as ClientUser[];
    expect(list.map((u) => u.email)).toEqual(['adam@aardvark.test', 'zoe@aardvark.test', 'client@demo.test', 'client2@demo.test']);
    const by = (email: string) => list.find((u) => u.email === email)!;
    expect(by('adam@aardvark.test')).toMatchObject({ name: 'adam apple', company: 'Aardvark Amusements', phone: '', brands: [] });
    expect(by('zoe@aardvark.test').brands).toEqual([]);
    expect(by('client@demo.test')).toMatchObject({ name: 'Chris Client', company: 'Crescent City Parks', phone: '+1 504 555 0101' });
    expect(by('client@demo.test').brands.map((b) => b.name)).toEqual(['Gulf Shield SPF', 'SunStop']);
    expect(by('client2@demo.test').brands.map((b) => b.name)).toEqual(['Bayou Clean', 'Gulf Shield SPF']);
    const [client] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, CLIENT));
    expect(by(CLIENT).id).toBe(client!.id);
    // The seed's deactivated client (overdue invoice) is not offered either.
    expect(list.some((u) => u.email === 'overdue@demo.test')).toBe(false);
  });

  it('refuses a client and a market partner (403), and a call without a token (401)', async () => {
    expect((await get(CLIENT)).status).toBe(403);
    expect((await get(PARTNER)).status).toBe(403);
    expect((await get()).status).toBe(401);
  });
});
