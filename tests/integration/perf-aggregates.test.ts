import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandClients, devices, users } from '../../server/src/db/schema.ts';
import { createApp } from '../../server/src/app.ts';
import { aggregateCache } from '../../server/src/lib/aggregate-cache.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const redisUp = await redisAvailable();
const TTL = 1500;

/**
 * Overview, deviceGroup and county counts are cached per scope (lib/aggregate-cache.ts): reused within
 * the expiry, emptied by any portal write in every process (over Redis), so a write is never read stale.
 */
describe.skipIf(!redisUp)('cached fleet aggregates across two processes', () => {
  let h: Harness;
  const bases: string[] = [];
  const servers: http.Server[] = [];
  const caches: ReturnType<typeof aggregateCache>[] = [];
  const token: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness('pglite');
    const prefix = `test:${crypto.randomBytes(4).toString('hex')}:`;
    for (let i = 0; i < 2; i++) {
      const aggregates = aggregateCache({ ttlMs: TTL, redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
      caches.push(aggregates);
      const app = createApp({
        config: h.config,
        database: h.database,
        mailer: createMailer({ from: 'x@y', outboxDir: path.join(h.dataDir, 'outbox') }),
        log: () => undefined,
        aggregates,
      });
      const server = http.createServer(app);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    await sleep(200); // both subscribed
    for (const who of ['distributor', 'client']) {
      token[who] = (
        await request(bases[0]!)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    for (const c of caches) await c.close();
    await h?.close();
  });
  const get = (at: number, who: string, p: string) =>
    request(bases[at]!).get(`/api/v1${p}`).set('Authorization', `Token ${token[who]}`);

  it('reuses the counts within the expiry: a change behind the API is seen only once it passes (refreshed behind the callers)', async () => {
    const before = (await get(0, 'distributor', '/overview')).body.maintenance_devices as number;
    const [device] = await h.database.db
      .select()
      .from(devices)
      .where(and(isNotNull(devices.groupId), eq(devices.isMaintenance, false)))
      .limit(1);
    // Written straight to the database, as a check-in would: no portal write empties the cache.
    await h.database.db.update(devices).set({ isMaintenance: true }).where(eq(devices.id, device!.id));
    expect((await get(0, 'distributor', '/overview')).body.maintenance_devices).toBe(before);
    // Asked fresh (a nudged poll) it is counted at once, and after the expiry for everyone.
    expect((await get(1, 'distributor', '/overview').set('Cache-Control', 'no-cache')).body.maintenance_devices).toBe(before + 1);
    // Once expired, the next read starts a refresh behind (answering the old value meanwhile): reads after it count it.
    await sleep(TTL + 50);
    await get(0, 'distributor', '/overview');
    const t = Date.now();
    while ((await get(0, 'distributor', '/overview')).body.maintenance_devices !== before + 1 && Date.now() - t < 2000)
      await sleep(20);
    expect((await get(0, 'distributor', '/overview')).body.maintenance_devices).toBe(before + 1);
    expect(Date.now() - t).toBeLessThan(1000);
    await h.database.db.update(devices).set({ isMaintenance: false }).where(eq(devices.id, device!.id));
  });

  it('a pause through REST on one process is counted at once by both', async () => {
    const counts = async () =>
      Promise.all([0, 1].map(async (at) => (await get(at, 'distributor', '/overview')).body.pause_devices as number));
    const [a, b] = await counts();
    expect(a).toBe(b);
    const [device] = await h.database.db
      .select()
      .from(devices)
      .where(and(isNotNull(devices.groupId), eq(devices.isPause, false)))
      .limit(1);
    const res = await request(bases[0]!)
      .post(`/api/v1/setPauseDevice/${device!.serial}`)
      .set('Authorization', `Token ${token.distributor}`)
      .send({ isPause: true });
    expect(res.status).toBe(200);
    expect((await get(0, 'distributor', '/overview')).body.pause_devices).toBe(a! + 1);
    // The other process hears the invalidation over Redis within milliseconds.
    const t = Date.now();
    while ((await get(1, 'distributor', '/overview')).body.pause_devices !== a! + 1 && Date.now() - t < TTL) await sleep(10);
    expect(Date.now() - t).toBeLessThan(300);
    await request(bases[0]!)
      .post(`/api/v1/setPauseDevice/${device!.serial}`)
      .set('Authorization', `Token ${token.distributor}`)
      .send({ isPause: false });
  });

  it("a brand assigned to a client widens that client's overview, sites and counties at once", async () => {
    const [client] = await h.database.db.select().from(users).where(eq(users.email, 'client@demo.test'));
    const mine = (
      await h.database.db.select({ brandId: brandClients.brandId }).from(brandClients).where(eq(brandClients.userId, client!.id))
    ).map((r) => r.brandId);
    const [other] = await h.database.db
      .select({ brandId: devices.brandId, n: sql<number>`count(*)::int` })
      .from(devices)
      .where(
        and(isNotNull(devices.groupId), isNotNull(devices.brandId), mine.length ? notInArray(devices.brandId, mine) : sql`true`),
      )
      .groupBy(devices.brandId)
      .limit(1);
    expect(other).toBeDefined();
    const before = await Promise.all(
      ['/overview', '/deviceGroup', '/location'].map(async (p) => (await get(1, 'client', p)).body),
    );
    const owners = await h.database.db
      .select({ email: users.email })
      .from(brandClients)
      .innerJoin(users, eq(users.id, brandClients.userId))
      .where(inArray(brandClients.brandId, [other!.brandId!]));
    const res = await request(bases[0]!)
      .post('/api/v1/assignBrandToClient')
      .set('Authorization', `Token ${token.distributor}`)
      .send({ brandId: other!.brandId, clientEmails: [...owners.map((o) => o.email), 'client@demo.test'] });
    expect(res.status).toBe(200);
    await sleep(50);
    const [overview, sites, counties] = await Promise.all(
      ['/overview', '/deviceGroup', '/location'].map(async (p) => (await get(1, 'client', p)).body),
    );
    expect(overview.total_devices).toBe(before[0].total_devices + other!.n);
    const sum = (list: { total_devices: number }[]) => list.reduce((n, x) => n + x.total_devices, 0);
    expect(sum(sites)).toBe(sum(before[1]) + other!.n);
    expect(sum(counties)).toBe(sum(before[2]) + other!.n);
  });
});
