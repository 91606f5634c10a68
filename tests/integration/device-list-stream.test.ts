import { sql, type SQL } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOf, deviceScope, type ScopeViewer } from '../../server/src/access/scope.ts';
import { devicesRepository, type DevicesRepository } from '../../server/src/devices/devices.repository.ts';
import { devicesService } from '../../server/src/devices/devices.service.ts';
import { aggregateCache } from '../../server/src/lib/aggregate-cache.ts';
import { addBenchFleet } from '../../server/src/seed/scale.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { streamedText } from '../helpers/streamed-text.ts';
import { wholeListOneQuery } from '../helpers/whole-list.ts';

const BACKENDS = await backends();
const EMAILS = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test', 'client2@demo.test'];
/** Devices a read takes in these tests: a fleet of 2,600 on 120 sites is read in some sixty reads. */
const BATCH = 25;
/** The site given BIG_SITE devices: more than a batch, which a read takes whole all the same. */
const BIG_SITE = 'Bench Site 5';
const BIG_SITE_DEVICES = 60;

type Item = { serial: string; number: number | null; location_group: number };

/**
 * GET /api/v1/device streamed (issue 46): read from the database in keyset batches by site, compressed as
 * it is read, kept compressed only. The answer must be the very text the one query of the whole list
 * gave (that query is here as the reference), in every role's scope and every encoding, while the list is
 * never read in one piece.
 */
describe.each(BACKENDS)('the whole device list, streamed, on %s', (backend) => {
  let h: Harness;
  let repo: DevicesRepository;
  const keys: Record<string, string> = {};
  const viewers: Record<string, ScopeViewer> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    await addBenchFleet(h.database, 120, 2600);
    // Null numbers (ordered last within their site) and one site bigger than a batch.
    await h.database.exec(`
      UPDATE devices SET number = NULL WHERE serial LIKE 'BN%' AND substr(serial, 3)::int % 7 = 0;
      UPDATE devices SET group_id = (SELECT id FROM device_groups WHERE name = '${BIG_SITE}')
        WHERE serial LIKE 'BN%' AND substr(serial, 3)::int BETWEEN 1000 AND ${999 + BIG_SITE_DEVICES};
      ANALYZE;`);
    repo = devicesRepository(h.database.db);
    for (const email of EMAILS) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
      const user = (
        (await h.database.db.execute(sql`select id, role, user_type from users where email = ${email}`)) as unknown as {
          rows: { id: number; role: string; user_type: string | null }[];
        }
      ).rows[0]!;
      viewers[email] = { id: user.id, access: accessOf({ role: user.role, userType: user.user_type }) };
    }
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const oneQuery = (scope: SQL | undefined) => wholeListOneQuery(h.database, scope);

  it.each(EMAILS)('reads the scope of %s in batches of whole sites, in the order and text of the one query', async (email) => {
    const scope = deviceScope(viewers[email]!);
    const expected = await oneQuery(scope);
    const batches: Item[][] = [];
    const texts: string[] = [];
    for await (const batch of repo.listBatches(scope, BATCH)) {
      texts.push(...batch);
      batches.push(batch.map((json) => JSON.parse(json) as Item));
    }
    expect(`[${texts.join(',')}]`).toBe(expected);
    const items = batches.flat();
    expect(items.length).toBeGreaterThan(0);
    const siteSizes = new Map<number, number>();
    for (const d of items) siteSizes.set(d.location_group, (siteSizes.get(d.location_group) ?? 0) + 1);
    const biggest = Math.max(...siteSizes.values());
    // Every read but the last takes at least a batch, and at most a batch and the rest of its last site.
    batches.slice(0, -1).forEach((b) => expect(b.length).toBeGreaterThanOrEqual(BATCH));
    batches.forEach((b) => expect(b.length).toBeLessThanOrEqual(BATCH + biggest - 1));
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(items.length / (BATCH + biggest - 1)));
    // No site is split over two reads.
    const readOf = new Map<number, number>();
    batches.forEach((b, i) =>
      b.forEach((d) => {
        expect(readOf.get(d.location_group) ?? i).toBe(i);
        readOf.set(d.location_group, i);
      }),
    );
    if (email === 'distributor@demo.test') {
      expect(items.length).toBeGreaterThan(2600);
      expect(batches.length).toBeGreaterThan(50);
      expect(biggest).toBeGreaterThanOrEqual(BIG_SITE_DEVICES);
      expect(items.some((d) => d.number === null)).toBe(true);
    }
  });

  it.each(EMAILS)('answers GET /api/v1/device to %s with the one query’s text, in each encoding', async (email) => {
    const expected = await oneQuery(deviceScope(viewers[email]!));
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await request(h.app)
        .get('/api/v1/device')
        .set('Authorization', `Token ${keys[email]}`)
        .set('Accept-Encoding', encoding);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (expected.length > 1024) expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(res.text).toBe(expected);
    }
  });

  it('shares one read among concurrent callers and those who come while it is read; keeps only the compressed bytes (brotli, read in batches)', async () => {
    const viewer = viewers['distributor@demo.test']!;
    let reads = 0;
    let batchesRead = 0;
    const counting: DevicesRepository = {
      ...repo,
      async *listBatches(scope, size) {
        reads++;
        for await (const batch of repo.listBatches(scope, size)) {
          batchesRead++;
          yield batch;
        }
      },
    };
    const cache = aggregateCache({ database: {} });
    const service = devicesService({ repo: counting, now: () => new Date(), cache, listBatchSize: BATCH });
    const answers = await Promise.all(Array.from({ length: 10 }, () => service.listStream(viewer, 'br')));
    const answer = answers[0]!;
    for (const a of answers) expect(a).toBe(answer);
    // Some reads in, far from the end: a caller now streams the same answer, from its first byte.
    while (batchesRead < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(answer.plainBytes()).toBeUndefined();
    const late = await service.listStream(viewer, 'br');
    expect(late).toBe(answer);
    const [early, joined] = await Promise.all([streamedText(answer), streamedText(late)]);
    const expected = await oneQuery(undefined);
    expect(early).toBe(expected);
    expect(joined).toBe(expected);
    expect(reads).toBe(1);
    expect(batchesRead).toBeGreaterThan(50);
    // The cache holds the compressed bytes, not the text.
    expect(answer.plainBytes()).toBe(Buffer.byteLength(expected));
    expect(answer.bytes()).toBeLessThan(Buffer.byteLength(expected) / 4);

    // A portal write empties the cache: the next caller starts a new read.
    cache.invalidate();
    const after = await service.listStream(viewer, 'br');
    expect(after).not.toBe(answer);
    expect(await streamedText(after)).toBe(expected);
    expect(reads).toBe(2);
    await cache.close();
  });
});
