import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOW_BATTERY_PERCENT,
  SELECTION_MESSAGES,
  searchKey,
  type DevicePageStatus,
  type StatusCountsAnswer,
} from '@fleet/shared';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

type Item = {
  id: number;
  serial: string;
  label: string;
  brand: number | null;
  location_id: number | null;
  location_group: number;
  address: string;
  market_partners: { company: string }[];
  is_online: boolean;
  is_warning: boolean;
  is_maintenance: boolean;
  is_pause: boolean;
  is_registration: boolean;
  battery_percent: number | null;
  batchNumber: string | null;
  batch2Number: string | null;
};

/** The dashboard's FILTER_RULES for the statuses devicePage takes, over the whole list's answer. */
const STATUS: Record<DevicePageStatus, (d: Item) => boolean> = {
  online: (d) => d.is_online,
  offline: (d) => !d.is_online,
  warning: (d) => d.is_warning,
  maintenance: (d) => d.is_maintenance,
  pause: (d) => d.is_pause,
  'low-battery': (d) => d.battery_percent != null && d.battery_percent < LOW_BATTERY_PERCENT,
  synced: (d) => d.is_registration,
};

/**
 * GET /api/v1/devicePage (issue 46): the whole list of GET /api/v1/device, one page at a time, filtered on
 * the server. Every expectation is the whole list filtered in the test with the dashboard's rules.
 */
describe.each(BACKENDS)('devicePage on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const whole: Record<string, Item[]> = {};
  const EMAILS = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test', 'client2@demo.test'];
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of EMAILS) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
      whole[email] = (await get(email, '/api/v1/device')).body as Item[];
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (email: string, path: string, query: Record<string, string | number> = {}) =>
    request(h.app).get(path).query(query).set('Authorization', `Token ${keys[email]}`);

  /** Every page of a query, following nextCursor; checks each page's total and size on the way. */
  async function walk(email: string, query: Record<string, string | number>, limit = 7) {
    const seen: Item[] = [];
    let cursor: string | null = null;
    let total = -1;
    for (let pages = 0; pages < 1000; pages++) {
      const res = await get(email, '/api/v1/devicePage', { ...query, limit, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(limit);
      if (total >= 0) expect(res.body.total).toBe(total);
      total = res.body.total;
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      if (!cursor) break;
      expect(res.body.items.length).toBe(limit);
    }
    return { seen, total };
  }
  const byId = (items: Item[]) => [...items].sort((a, b) => a.id - b.id).map((d) => d.serial);

  it.each(EMAILS)('walks the whole scope of %s exactly once, in id order, each item as the list has it', async (email) => {
    const { seen, total } = await walk(email, {});
    expect(whole[email]!.length).toBeGreaterThan(0);
    expect(seen.map((d) => d.serial)).toEqual(byId(whole[email]!));
    expect(new Set(seen.map((d) => d.serial)).size).toBe(seen.length);
    expect(total).toBe(whole[email]!.length);
    const listed = new Map(whole[email]!.map((d) => [d.serial, d]));
    for (const d of seen) expect(d).toEqual(listed.get(d.serial));
  });

  it('the default page is 100 items, and a scope narrower than the fleet stays narrow', async () => {
    const res = await get('distributor@demo.test', '/api/v1/devicePage');
    expect(res.body.items.length).toBe(Math.min(100, whole['distributor@demo.test']!.length));
    const client = await walk('client@demo.test', {}, 500);
    expect(client.total).toBeLessThan(whole['distributor@demo.test']!.length);
  });

  it.each(Object.keys(STATUS) as DevicePageStatus[])('status=%s gives the dashboard rule', async (status) => {
    for (const email of ['distributor@demo.test', 'client@demo.test']) {
      const { seen, total } = await walk(email, { status }, 50);
      const expected = whole[email]!.filter(STATUS[status]);
      expect(seen.map((d) => d.serial)).toEqual(byId(expected));
      expect(total).toBe(expected.length);
    }
  });

  it('brand, county and partner narrow as the dashboard does, and combine', async () => {
    const all = whole['distributor@demo.test']!;
    const brand = all.find((d) => d.brand != null)!.brand!;
    const county = all.find((d) => d.location_id != null)!.location_id!;
    // A site with several devices (the device panel reads its column this way).
    const site = all.find((d) => all.filter((o) => o.location_group === d.location_group).length > 1)!.location_group;
    const companies = [...new Set(all.flatMap((d) => d.market_partners.map((p) => p.company)))];
    const partner = companies[0]!;
    const other = companies.find((c) => c.toLowerCase() !== partner.toLowerCase());
    const cases: [Record<string, string | number>, (d: Item) => boolean][] = [
      [{ brand }, (d) => d.brand === brand],
      [{ county }, (d) => d.location_id === county],
      [{ site }, (d) => d.location_group === site],
      [
        { partner: partner.toUpperCase() },
        (d) => d.market_partners.some((p) => p.company.toLowerCase() === partner.toLowerCase()),
      ],
      [{ brand, status: 'online' }, (d) => d.brand === brand && d.is_online],
      // Several companies (the dashboard's multiple choice), joined by PARTNER_SEPARATOR: a device of any of them.
      ...(other
        ? [
            [
              { partner: `${partner}|${other.toLowerCase()}` },
              (d: Item) =>
                d.market_partners.some((p) => [partner, other].some((c) => c.toLowerCase() === p.company.toLowerCase())),
            ] as [Record<string, string | number>, (d: Item) => boolean],
          ]
        : []),
    ];
    expect(other, 'the demo has two market-partner companies').toBeDefined();
    for (const [query, rule] of cases) {
      const expected = all.filter(rule);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      const { seen, total } = await walk('distributor@demo.test', query, 25);
      expect(
        seen.map((d) => d.serial),
        JSON.stringify(query),
      ).toEqual(byId(expected));
      expect(total).toBe(expected.length);
    }
  });

  it('q matches label or serial ignoring case and white space, and wildcards are plain characters', async () => {
    const all = whole['distributor@demo.test']!;
    const sample = all[3]!;
    const typed = [
      ` ${sample.serial.slice(1, 5).toLowerCase().split('').join(' ')} `,
      sample.label.slice(0, 4).toUpperCase(),
      '%',
      '_',
      'no such device anywhere',
    ];
    for (const q of typed) {
      const key = searchKey(q);
      const expected = all.filter((d) => searchKey(d.label ?? '').includes(key) || searchKey(d.serial).includes(key));
      const { seen, total } = await walk('distributor@demo.test', { q }, 100);
      expect(
        seen.map((d) => d.serial),
        q,
      ).toEqual(byId(expected));
      expect(total).toBe(expected.length);
    }
  });

  it("notBrand, noBrand and address narrow as 'Add Device To {brand}' does, combine, and count right", async () => {
    // Every demo device has a brand: one outside the client's scope (a client's scope is by brand) loses it
    // for this test, put back after.
    const clientSees = new Set(whole['client@demo.test']!.map((d) => d.serial));
    const loose = whole['distributor@demo.test']!.find((d) => d.brand != null && !clientSees.has(d.serial))!;
    await h.database.db.execute(sql`update devices set brand_id = null where serial = ${loose.serial}`);
    const withLoose = (list: Item[]) => list.map((d) => (d.serial === loose.serial ? { ...d, brand: null } : d));
    try {
      await brandFilters(withLoose);
    } finally {
      await h.database.db.execute(sql`update devices set brand_id = ${loose.brand} where serial = ${loose.serial}`);
    }
  });
  async function brandFilters(withLoose: (list: Item[]) => Item[]) {
    for (const email of ['distributor@demo.test', 'client@demo.test']) {
      const all = withLoose(whole[email]!);
      // An address that devices of a brand and of another (or none) share, when the scope has one.
      const mixed = all.find((d) => d.brand != null && all.some((o) => o.address === d.address && o.brand !== d.brand));
      const brand = (mixed ?? all.find((d) => d.brand != null)!).brand!;
      const address = mixed?.address;
      const county = all.find((d) => d.brand !== brand && d.location_id != null)!.location_id!;
      const cases: [Record<string, string | number>, (d: Item) => boolean][] = [
        [{ notBrand: brand }, (d) => d.brand !== brand],
        [{ noBrand: 'true' }, (d) => d.brand === null],
        [{ notBrand: brand, county }, (d) => d.brand !== brand && d.location_id === county],
        ...(address
          ? ([
              [{ address }, (d: Item) => d.address === address],
              [{ notBrand: brand, address }, (d: Item) => d.brand !== brand && d.address === address],
            ] as [Record<string, string | number>, (d: Item) => boolean][])
          : []),
      ];
      if (email === 'distributor@demo.test') expect(address, 'the demo has a shared address').toBeDefined();
      for (const [query, rule] of cases) {
        const expected = all.filter(rule);
        const label = `${email} ${JSON.stringify(query)}`;
        if (email === 'distributor@demo.test') expect(expected.length, label).toBeGreaterThan(0);
        expect(expected.length, label).toBeLessThan(all.length);
        const { seen, total } = await walk(email, query, 5);
        expect(
          seen.map((d) => d.serial),
          label,
        ).toEqual(byId(expected));
        expect(total, label).toBe(expected.length);
      }
    }
    // An address nobody has: nothing, counted as nothing.
    const none = await walk('distributor@demo.test', { address: 'No Such Street 0' });
    expect(none).toEqual({ seen: [], total: 0 });
  }

  it('search matches label, serial or address by the q rule; q alone does not read the address', async () => {
    const all = whole['distributor@demo.test']!;
    // A word of an address that is in no label or serial, typed with other case and spaces.
    const word = all
      .flatMap((d) => d.address.split(/\s+/))
      .find(
        (w) =>
          w.length > 3 &&
          !all.some((d) => searchKey(d.label ?? '').includes(searchKey(w)) || searchKey(d.serial).includes(searchKey(w))),
      )!;
    expect(word, 'an address word found in no label or serial').toBeDefined();
    const sample = all[2]!;
    const typed = [
      ` ${word.toUpperCase().split('').join(' ')} `,
      sample.serial.slice(2, 7).toLowerCase(),
      '%',
      'no such device anywhere',
    ];
    for (const search of typed) {
      const key = searchKey(search);
      const expected = all.filter((d) => [d.label ?? '', d.serial, d.address].some((text) => searchKey(text).includes(key)));
      const { seen, total } = await walk('distributor@demo.test', { search }, 10);
      expect(
        seen.map((d) => d.serial),
        search,
      ).toEqual(byId(expected));
      expect(total, search).toBe(expected.length);
    }
    expect((await walk('distributor@demo.test', { search: word }, 100)).total).toBeGreaterThan(0);
    expect((await walk('distributor@demo.test', { q: word }, 100)).total).toBe(0);
  });

  it('the search is served by the trigram index (pg_trgm loads on both backends)', async () => {
    let plan = '';
    // The demo fleet is small: a scan, or the site index on group_id, is cheaper than any search index.
    // Without them for one transaction (rolled back) the planner shows whether the search index serves
    // the query's expression (at 100,000 devices it picks it by itself: docs/fleet-100k.md).
    await h.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`drop index devices_list_order_idx`);
        await tx.execute(sql`drop index devices_group_idx`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const res = (await tx.execute(
          sql`explain select count(*) from devices where group_id is not null and device_search_key(label, serial) like '%qzxqzx%'`,
        )) as unknown as { rows: Record<string, string>[] };
        plan = res.rows.map((r) => Object.values(r)[0]).join('\n');
        tx.rollback();
      })
      .catch(() => undefined);
    expect(plan).toContain('devices_search_idx');
  });

  it('deviceGroup answers only the sites in a view (bbox, county), the whole answer without one', async () => {
    type Site = { id: number; lat: number; lng: number; location: number | null };
    const all = (await get('client@demo.test', '/api/v1/deviceGroup')).body as Site[];
    expect(all.length).toBeGreaterThan(2);
    const lats = all.map((g) => g.lat).sort((a, b) => a - b);
    const lngs = all.map((g) => g.lng).sort((a, b) => a - b);
    const [south, north] = [lats[0]!, lats[Math.floor(lats.length / 2)]!];
    const [west, east] = [lngs[0]!, lngs[lngs.length - 1]!];
    const boxed = await get('client@demo.test', '/api/v1/deviceGroup', { bbox: `${south},${west},${north},${east}` });
    expect(boxed.status).toBe(200);
    const inBox = all.filter((g) => g.lat >= south && g.lat <= north && g.lng >= west && g.lng <= east);
    expect(inBox.length).toBeLessThan(all.length);
    expect(boxed.body).toEqual(inBox);
    const county = all.find((g) => g.location != null)!.location!;
    expect((await get('client@demo.test', '/api/v1/deviceGroup', { county })).body).toEqual(
      all.filter((g) => g.location === county),
    );
    for (const bbox of ['1,2,3', '10,0,5,1', 'a,b,c,d', '0,0,100,1']) {
      const bad = await get('client@demo.test', '/api/v1/deviceGroup', { bbox });
      expect(bad.status, bbox).toBe(400);
      expect(Object.keys(bad.body), bbox).toContain('bbox');
    }
  });

  it("siteNames answers the names of deviceGroup's sites in the same view, for each role; bbox required", async () => {
    type Site = { id: number; name: string; address: string; lat: number; lng: number };
    for (const email of ['distributor@demo.test', 'client@demo.test', 'partner@demo.test']) {
      const all = (await get(email, '/api/v1/deviceGroup')).body as Site[];
      expect(all.length, email).toBeGreaterThan(0);
      const lats = all.map((g) => g.lat).sort((a, b) => a - b);
      const lngs = all.map((g) => g.lng).sort((a, b) => a - b);
      const bbox = `${lats[0]},${lngs[0]},${lats[Math.floor(lats.length / 2)]},${lngs[lngs.length - 1]}`;
      const sites = (await get(email, '/api/v1/deviceGroup', { bbox })).body as Site[];
      const names = await get(email, '/api/v1/siteNames', { bbox });
      expect(names.status, email).toBe(200);
      // The map's rule: the name, else the address, trimmed; none left out but sites with neither.
      const expected = sites
        .map((g) => [g.id, (g.name || g.address || '').trim()] as const)
        .filter(([, name]) => name !== '')
        .sort((a, b) => a[0] - b[0]);
      expect(expected.length, email).toBeGreaterThan(0);
      expect(names.body, email).toEqual(expected);
    }
    for (const query of [{}, { bbox: '1,2,3' }, { bbox: '10,0,5,1' }] as Record<string, string>[]) {
      const bad = await get('client@demo.test', '/api/v1/siteNames', query);
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(Object.keys(bad.body)).toContain('bbox');
    }
    expect((await request(h.app).get('/api/v1/siteNames').query({ bbox: '0,0,1,1' })).status).toBe(401);
  });

  it('GET /api/v1/device?serials= answers only the named devices in scope (the exclusive-management rows)', async () => {
    const all = whole['distributor@demo.test']!;
    const named = [all[4]!.serial, all[1]!.serial, 'SP999999'];
    const res = await get('distributor@demo.test', '/api/v1/device', { serials: named.join(',') });
    expect(res.status).toBe(200);
    expect((res.body as Item[]).map((d) => d.serial).sort()).toEqual([all[1]!.serial, all[4]!.serial].sort());
    const bad = await get('distributor@demo.test', '/api/v1/device', { serials: ',' });
    expect(bad.status).toBe(400);
    expect(bad.body.serials).toEqual(['serials is a comma-separated list of serials.']);
  });

  it('a bad query answers 400 naming the parameter', async () => {
    const bad: [Record<string, string | number>, string][] = [
      [{ limit: 0 }, 'limit'],
      [{ limit: 501 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ status: 'sleeping' }, 'status'],
      [{ brand: 'x' }, 'brand'],
      [{ county: -1 }, 'county'],
      [{ site: 'beach' }, 'site'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ cursor: 'd' + 'z'.repeat(12) }, 'cursor'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ search: 'x'.repeat(101) }, 'search'],
      [{ notBrand: 'x' }, 'notBrand'],
      [{ notBrand: 0 }, 'notBrand'],
      [{ noBrand: 'false' }, 'noBrand'],
      [{ address: 'x'.repeat(501) }, 'address'],
      [{ batch: 'x'.repeat(101) }, 'batch'],
    ];
    for (const [query, field] of bad) {
      const res = await get('distributor@demo.test', '/api/v1/devicePage', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(Object.keys(res.body), JSON.stringify(query)).toContain(field);
    }
    // The selection filter's messages: one definition.
    const messages = await Promise.all(
      (['notBrand', 'noBrand', 'address'] as const).map(async (field) => {
        const value = { notBrand: 'x', noBrand: 'false', address: 'x'.repeat(501) }[field];
        return (await get('distributor@demo.test', '/api/v1/devicePage', { [field]: value })).body[field];
      }),
    );
    expect(messages.flat()).toEqual([SELECTION_MESSAGES.notBrand, SELECTION_MESSAGES.noBrand, SELECTION_MESSAGES.address]);
  });

  // Last: it recalls a batch (warnings change), which the tests above read.
  it('batch lists the devices a batch number feeds on either pump: the devices the recall pauses', async () => {
    const DIST = 'distributor@demo.test';
    const all = whole[DIST]!;
    const key = (n: string | null) => (n === null ? null : n.trim().toLowerCase());
    const numbers = [...new Set(all.flatMap((d) => [key(d.batchNumber), key(d.batch2Number)]).filter((n) => n !== null))];
    // A number feeding a right pump somewhere, so both pumps are looked at.
    const number = numbers.find((n) => all.some((d) => key(d.batch2Number) === n))!;
    expect(number, 'the demo has a batch on a right pump').toBeDefined();
    const fed = (d: Item) => key(d.batchNumber) === number || key(d.batch2Number) === number;
    const expected = all.filter(fed);
    expect(expected.length).toBeLessThan(all.length);
    // The number as typed differently (letter case, spaces around it) is the same batch.
    const { seen, total } = await walk(DIST, { batch: `  ${number.toUpperCase()} ` }, 3);
    expect(seen.map((d) => d.serial)).toEqual(byId(expected));
    expect(total).toBe(expected.length);
    // Within the caller's scope, combined with the other filters.
    const client = whole['client@demo.test']!.filter(fed);
    expect((await walk('client@demo.test', { batch: number }, 50)).seen.map((d) => d.serial)).toEqual(byId(client));
    const online = await walk(DIST, { batch: number, status: 'online' }, 50);
    expect(online.seen.map((d) => d.serial)).toEqual(byId(expected.filter((d) => d.is_online)));
    expect((await get(DIST, '/api/v1/devicePage', { batch: 'no such batch' })).body).toMatchObject({ items: [], total: 0 });

    // The recall's own list (and the devices it pauses) is the same devices.
    const batches = (await get(DIST, '/api/v1/batch')).body as { id: number; batch_no: string }[];
    const batch = batches.find((b) => key(b.batch_no) === number)!;
    const recall = await request(h.app)
      .post(`/api/v1/recallBatch/${batch.id}`)
      .set('Authorization', `Token ${keys[DIST]}`)
      .send({ pauseDevices: false });
    expect(recall.status, JSON.stringify(recall.body)).toBe(200);
    const recalled = (recall.body as { devices: { serial: string }[] }).devices.map((d) => d.serial);
    expect(recalled.sort()).toEqual(expected.map((d) => d.serial).sort());
  });
  it("statusCounts counts the whole list by the status report's rules, in all and per county, in each role's scope", async () => {
    for (const email of EMAILS) {
      const all = (await get(email, '/api/v1/device')).body as Item[];
      const countsOf = (items: Item[]) => ({
        total: items.length,
        online: items.filter((d) => d.is_online).length,
        registering: items.filter((d) => !d.is_online && d.is_registration).length,
        offline: items.filter((d) => !d.is_online && !d.is_registration).length,
        warning: items.filter((d) => d.is_warning).length,
        paused: items.filter((d) => d.is_pause).length,
        maintenance: items.filter((d) => d.is_maintenance).length,
        lowBattery: items.filter((d) => d.battery_percent != null && d.battery_percent < LOW_BATTERY_PERCENT).length,
      });
      const counties = [...new Set(all.map((d) => d.location_id))].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
      const res = await get(email, '/api/v1/statusCounts');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        counts: countsOf(all),
        counties: counties.map((id) => ({ id, counts: countsOf(all.filter((d) => d.location_id === id)) })),
      });
      expect(res.body.counts.total, email).toBeGreaterThan(0);
    }
    // The demo's fleet is not all of one kind: the counts tell the devices apart.
    const fleet = (await get('distributor@demo.test', '/api/v1/statusCounts')).body as {
      counts: StatusCountsAnswer;
      counties: unknown[];
    };
    expect(fleet.counties.length).toBeGreaterThan(1);
    expect(fleet.counts.online).toBeLessThan(fleet.counts.total);
    expect(fleet.counts.paused).toBeGreaterThan(0);
    expect(await request(h.app).get('/api/v1/statusCounts')).toMatchObject({ status: 401 });
  });
});
