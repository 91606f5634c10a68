import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchKey } from '@fleet/shared';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

type Item = { serial: string; label: string; brand: number | null; location_id: number | null; address: string };

const DISTRIBUTOR = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const PARTNER = 'partner@demo.test';

/** The search rule of devicePage (shared searchKey), over the whole list's answer. */
const matches = (d: Item, q: string) =>
  `${d.label.replace(/\s+/g, '').toLowerCase()} ${d.serial.replace(/\s+/g, '').toLowerCase()}`.includes(searchKey(q));

/**
 * Selections resolved on the server (issue 46): POST /api/v1/deviceSelection and
 * POST /api/v1/assignBrandToSelection. Every expectation is the whole list (GET /api/v1/device) filtered in the test.
 */
describe.each(BACKENDS)('device selections on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const whole: Record<string, Item[]> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
      whole[email] = await list(email);
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const list = async (email: string) =>
    (await request(h.app).get('/api/v1/device').set('Authorization', `Token ${keys[email]}`).set('Cache-Control', 'no-cache'))
      .body as Item[];
  const post = (email: string, path: string, body: unknown) =>
    request(h.app)
      .post(path)
      .set('Authorization', `Token ${keys[email]}`)
      .send(body as object);
  const resolve = (email: string, selection: unknown, limit = 2000) =>
    post(email, '/api/v1/deviceSelection', { selection, limit });
  const sorted = (items: Item[]) => items.map((d) => d.serial).sort();

  it('a filter resolves to the devices the filter matches in the caller scope, counted and listed by serial', async () => {
    for (const email of [DISTRIBUTOR, CLIENT, PARTNER]) {
      const all = await resolve(email, { filter: {} });
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      expect(all.body).toEqual({ total: whole[email]!.length, serials: sorted(whole[email]!) });
    }
    const county = whole[DISTRIBUTOR]!.find((d) => d.location_id != null)!.location_id!;
    const inCounty = whole[DISTRIBUTOR]!.filter((d) => d.location_id === county);
    const res = await resolve(DISTRIBUTOR, { filter: { county } }, 2);
    expect(res.body).toEqual({ total: inCounty.length, serials: sorted(inCounty).slice(0, 2) });
    // limit 0 (the default) counts only.
    const count = await post(DISTRIBUTOR, '/api/v1/deviceSelection', { selection: { filter: { county } } });
    expect(count.body).toEqual({ total: inCounty.length, serials: [] });
  });

  it("a filter is devicePage's: site and search narrow a selection as they narrow a page (one where-clause)", async () => {
    const all = whole[DISTRIBUTOR]!;
    const site = (all as (Item & { location_group: number })[]).find((d, _, list) =>
      list.some((o) => o.serial !== d.serial && o.location_group === d.location_group),
    )!.location_group;
    const word = all[0]!.address.split(/\s+/).find((w) => w.length > 3)!;
    for (const filter of [{ site }, { search: word.toUpperCase() }, { notBrand: all[0]!.brand!, address: all[0]!.address }]) {
      const page = await request(h.app)
        .get('/api/v1/devicePage')
        .query({ ...filter, limit: 500 })
        .set('Authorization', `Token ${keys[DISTRIBUTOR]}`);
      const paged = (page.body.items as Item[]).map((d) => d.serial).sort();
      expect(paged.length, JSON.stringify(filter)).toBeLessThan(all.length);
      expect((await resolve(DISTRIBUTOR, { filter })).body, JSON.stringify(filter)).toEqual({
        total: page.body.total,
        serials: paged,
      });
    }
    const bySite = await resolve(DISTRIBUTOR, { filter: { site } });
    expect(bySite.body.total).toBeGreaterThan(1);
  });

  it('a client cannot select outside its devices: serials and filters outside its scope select nothing', async () => {
    const mine = new Set(whole[CLIENT]!.map((d) => d.serial));
    const outside = whole[DISTRIBUTOR]!.filter((d) => !mine.has(d.serial)).map((d) => d.serial);
    expect(outside.length).toBeGreaterThan(0);
    const named = await resolve(CLIENT, { serials: outside });
    expect(named.body).toEqual({ total: 0, serials: [] });
    // Every device, then every serial of the fleet added: still only the client's own.
    const all = await resolve(CLIENT, { filter: {}, steps: [{ op: 'add', serials: outside }] });
    expect(all.body).toEqual({ total: mine.size, serials: [...mine].sort() });
    const brandOutside = whole[DISTRIBUTOR]!.find((d) => d.brand != null && !whole[CLIENT]!.some((c) => c.brand === d.brand));
    if (brandOutside) expect((await resolve(CLIENT, { filter: { brand: brandOutside.brand } })).body.total).toBe(0);
    // Nor can it move them: the transfer is a distributor's, whatever the selection.
    const before = await list(DISTRIBUTOR);
    const refused = await post(CLIENT, '/api/v1/assignBrandToSelection', {
      brandId: before[0]!.brand ?? 1,
      selection: { filter: {} },
    });
    expect(refused.status).toBe(403);
    expect(await list(DISTRIBUTOR)).toEqual(before);
  });

  it('steps apply in order: select and deselect a search, add and remove serials', async () => {
    const all = whole[DISTRIBUTOR]!;
    // A serial prefix that some devices share and some do not.
    const prefixes = all.flatMap((d) => [4, 5, 6, 7, 8].map((n) => d.serial.slice(0, n)));
    const q = prefixes.find((p) => {
      const n = all.filter((d) => matches(d, p)).length;
      return n >= 3 && n < all.length;
    })!;
    expect(q).toBeDefined();
    const q2 = all.find((d) => matches(d, q) && all.some((o) => matches(o, q) && o.serial !== d.serial))!.serial;
    const extra = all.find((d) => !matches(d, q))!.serial;
    const dropped = all.find((d) => matches(d, q) && d.serial !== q2)!.serial;
    const selection = {
      steps: [
        { op: 'select', filter: { q } },
        { op: 'deselect', filter: { q: q2 } },
        { op: 'add', serials: [extra] },
        { op: 'remove', serials: [dropped] },
        { op: 'select', filter: { q: q2.toLowerCase() } },
      ],
    };
    const expected = all
      .filter((d) => (((matches(d, q) && !matches(d, q2)) || d.serial === extra) && d.serial !== dropped) || matches(d, q2))
      .map((d) => d.serial)
      .sort();
    expect((await resolve(DISTRIBUTOR, selection)).body).toEqual({ total: expected.length, serials: expected });
    // filter, serials and except: (filter or serials) and not except.
    const simple = await resolve(DISTRIBUTOR, { filter: { q }, serials: [extra], except: [dropped] });
    const expectedSimple = all.filter((d) => (matches(d, q) || d.serial === extra) && d.serial !== dropped);
    expect(simple.body.total).toBe(expectedSimple.length);
  });

  it('counts: the brands and counties of a list (the Report List counts), only of devices in scope', async () => {
    // The rule: a device of no brand, or of a site in no county, adds none.
    const tally = (items: Item[]) => ({
      total: items.length,
      brands: new Set(items.flatMap((d) => (d.brand == null ? [] : [d.brand]))).size,
      counties: new Set(items.flatMap((d) => (d.location_id == null ? [] : [d.location_id]))).size,
    });
    const all = whole[DISTRIBUTOR]!;
    const brands = new Set(all.map((d) => d.brand).filter((b) => b != null));
    expect(brands.size, 'the demo has several brands').toBeGreaterThan(1);
    const list = all.filter((_, i) => i % 3 === 0);
    const res = await post(DISTRIBUTOR, '/api/v1/deviceSelection', {
      selection: { serials: [...list.map((d) => d.serial), 'NO-SUCH-SERIAL'] },
      counts: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...tally(list), serials: [] });
    expect(tally(list).brands).toBeGreaterThan(1);
    // A client's list naming devices outside its scope: only its own are counted.
    const mine = new Set(whole[CLIENT]!.map((d) => d.serial));
    const own = await post(CLIENT, '/api/v1/deviceSelection', { selection: { serials: all.map((d) => d.serial) }, counts: true });
    expect(own.body).toEqual({ ...tally(all.filter((d) => mine.has(d.serial))), serials: [] });
    // Without counts the answer is as before.
    expect((await post(DISTRIBUTOR, '/api/v1/deviceSelection', { selection: { serials: [all[0]!.serial] } })).body).toEqual({
      total: 1,
      serials: [],
    });
  });

  it('a batch filter selects the devices a batch number feeds', async () => {
    const all = (await list(DISTRIBUTOR)) as (Item & { batchNumber: string | null; batch2Number: string | null })[];
    const number = all.find((d) => d.batchNumber)!.batchNumber!;
    const key = (n: string | null) => n?.trim().toLowerCase();
    const fed = all.filter((d) => key(d.batchNumber) === key(number) || key(d.batch2Number) === key(number));
    expect((await resolve(DISTRIBUTOR, { filter: { batch: number } })).body).toEqual({ total: fed.length, serials: sorted(fed) });
  });

  it('a bad filter or body is a 400 naming the field, never a 500', async () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['/api/v1/deviceSelection', { selection: { filter: { status: 'sleeping' } } }, 'selection', /status is one of/],
      ['/api/v1/deviceSelection', { selection: { filter: { county: 'x' } } }, 'selection', /county/],
      ['/api/v1/deviceSelection', { selection: { steps: [{ op: 'drop', serials: ['A'] }] } }, 'selection', /op/],
      ['/api/v1/deviceSelection', { selection: { serials: 'A1' } }, 'selection', /serials/],
      ['/api/v1/deviceSelection', {}, 'selection', /selection/],
      ['/api/v1/deviceSelection', { selection: {}, limit: 5000 }, 'limit', /limit/],
      ['/api/v1/deviceSelection', { selection: {}, counts: 'yes' }, 'counts', /counts is true or false/],
      ['/api/v1/deviceSelection', { selection: { filter: { batch: 'x'.repeat(101) } } }, 'selection', /batch/],
      ['/api/v1/assignBrandToSelection', { selection: { filter: {} } }, 'brandId', /brandId/],
      ['/api/v1/assignBrandToSelection', { brandId: 1, selection: { filter: { notBrand: -2 } } }, 'selection', /notBrand/],
    ];
    for (const [path, body, field, message] of cases) {
      const res = await post(DISTRIBUTOR, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body[field]?.join(' '), JSON.stringify(res.body)).toMatch(message);
    }
  });

  it('Add Device To brand moves a selection in one call, all or nothing', async () => {
    const before = await list(DISTRIBUTOR);
    const target = before.find((d) => d.brand != null)!.brand!;
    const county = before.find((d) => d.location_id != null && d.brand !== target)!.location_id!;
    const moving = before.filter((d) => d.location_id === county && d.brand !== target);
    expect(moving.length).toBeGreaterThan(0);

    // An unknown serial named in the selection: 400 naming it, and no device changed.
    const typo = await post(DISTRIBUTOR, '/api/v1/assignBrandToSelection', {
      brandId: target,
      selection: { filter: { county, notBrand: target }, serials: ['NO-SUCH-SERIAL'] },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.selection).toEqual(['Unknown device: NO-SUCH-SERIAL.']);
    expect(await list(DISTRIBUTOR)).toEqual(before);

    // A failure half-way through the update (a device refuses it) rolls every device back.
    const db = h.database.db;
    const refusing = moving.at(-1)!.serial;
    await db.execute(sql`create or replace function selection_test_refuse() returns trigger language plpgsql as $$
      begin if new.serial = ${sql.raw(`'${refusing.replace(/'/g, "''")}'`)} then raise exception 'refused'; end if; return new; end $$`);
    await db.execute(
      sql`create trigger selection_test_refuse before update on devices for each row execute function selection_test_refuse()`,
    );
    try {
      const failed = await post(DISTRIBUTOR, '/api/v1/assignBrandToSelection', {
        brandId: target,
        selection: { filter: { county } },
      });
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.execute(sql`drop trigger selection_test_refuse on devices`);
      await db.execute(sql`drop function selection_test_refuse()`);
    }
    expect(await list(DISTRIBUTOR)).toEqual(before);

    // A selection of no device: 400, nothing sent to nobody.
    const none = await post(DISTRIBUTOR, '/api/v1/assignBrandToSelection', {
      brandId: target,
      selection: { filter: { q: 'zz-no-such-device-zz' } },
    });
    expect(none.status).toBe(400);
    expect(none.body.selection).toEqual(['Select at least one device.']);
    expect(
      (await post(DISTRIBUTOR, '/api/v1/assignBrandToSelection', { brandId: 999999, selection: { filter: {} } })).status,
    ).toBe(404);

    // The whole county moves at once, the brand answered with the count moved.
    const done = await post(DISTRIBUTOR, '/api/v1/assignBrandToSelection', {
      brandId: target,
      selection: { filter: { county } },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: target, transferred: moving.length });
    expect(done.body.deviceSerials).toEqual(expect.arrayContaining(moving.map((d) => d.serial)));
    const after = await list(DISTRIBUTOR);
    const moved = new Set(moving.map((d) => d.serial));
    for (const d of after) {
      const was = before.find((b) => b.serial === d.serial)!;
      expect(d.brand, d.serial).toBe(moved.has(d.serial) ? target : was.brand);
    }
    // The spec's call taking serials is unchanged beside it.
    const spec = await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', { brandId: target, deviceSerials: [moving[0]!.serial] });
    expect(spec.status).toBe(200);
  });
});
