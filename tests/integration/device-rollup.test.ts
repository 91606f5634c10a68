import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RollupRow } from '@fleet/shared';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

type Item = {
  serial: string;
  label: string;
  number: number | null;
  address: string;
  brand: number | null;
  location_id: number | null;
  location_group: number;
  batchNumber: string | null;
  batch2Number: string | null;
  market_partners: { company: string }[];
  is_online: boolean;
  is_warning: boolean;
};

/** The cards' counts as the dashboard counted them in the browser before issue 46, over the whole list. */
function rollUp(devices: readonly Item[], keysOf: (d: Item) => string[]) {
  const rows = new Map<string, { total: number; online: number; offline: number; warning: number }>();
  for (const d of devices)
    for (const key of new Set(keysOf(d))) {
      const row = rows.get(key) ?? { total: 0, online: 0, offline: 0, warning: 0 };
      rows.set(key, row);
      row.total += 1;
      if (d.is_online) row.online += 1;
      else row.offline += 1;
      if (d.is_warning) row.warning += 1;
    }
  return Object.fromEntries([...rows].sort(([a], [b]) => a.localeCompare(b)));
}
const counts = (rows: RollupRow[]) =>
  Object.fromEntries(
    rows
      .map((r) => [r.key, { total: r.total, online: r.online, offline: r.offline, warning: r.warning }] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
const fedBy = (batch: string) => (d: Item) => d.batchNumber === batch || d.batch2Number === batch;
const company = (name: string) => name.trim().toLowerCase();

/**
 * GET /api/v1/deviceRollup (issue 46): the dashboard's county, site, market-partner and batch cards counted
 * by the server. Every expectation is the whole list (GET /api/v1/device) rolled up in the test, as the
 * browser did before.
 */
describe.each(BACKENDS)('deviceRollup on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const whole: Record<string, Item[]> = {};
  const EMAILS = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test'];
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of EMAILS) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
      whole[email] = (await get(email, { by: 'county' }, '/api/v1/device')).body as Item[];
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  function get(email: string, query: Record<string, string | number>, path = '/api/v1/deviceRollup') {
    return request(h.app).get(path).query(query).set('Authorization', `Token ${keys[email]}`);
  }
  async function rows(email: string, query: Record<string, string | number>) {
    const res = await get(email, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rows as RollupRow[];
  }

  it.each(EMAILS)('counts the county cards of %s, by batch and by brand too', async (email) => {
    const devices = whole[email]!;
    expect(devices.length).toBeGreaterThan(0);
    const byCounty = (d: Item) => (d.location_id == null ? [] : [String(d.location_id)]);
    expect(counts(await rows(email, { by: 'county' }))).toEqual(rollUp(devices, byCounty));
    const batch = devices.find((d) => d.batch2Number)?.batch2Number ?? devices.find((d) => d.batchNumber)!.batchNumber!;
    expect(counts(await rows(email, { by: 'county', batch }))).toEqual(rollUp(devices.filter(fedBy(batch)), byCounty));
    const brand = devices.find((d) => d.brand !== null)!.brand!;
    expect(counts(await rows(email, { by: 'county', brand }))).toEqual(
      rollUp(
        devices.filter((d) => d.brand === brand),
        byCounty,
      ),
    );
    // The Batch filter's options: every batch number feeding a device in scope.
    expect(counts(await rows(email, { by: 'batch' }))).toEqual(
      rollUp(devices, (d) => [d.batchNumber, d.batch2Number].filter((n): n is string => !!n)),
    );
  });

  it("drills into a county's sites, each named by its first device, and filters them by batch", async () => {
    const email = 'distributor@demo.test';
    const devices = whole[email]!;
    const county = devices[0]!.location_id!;
    const inCounty = devices.filter((d) => d.location_id === county);
    const sites = await rows(email, { by: 'site', county });
    expect(counts(sites)).toEqual(rollUp(inCounty, (d) => [String(d.location_group)]));
    for (const site of sites) {
      const first = inCounty
        .filter((d) => String(d.location_group) === site.key)
        .sort((a, b) => (a.number ?? 0) - (b.number ?? 0) || a.serial.localeCompare(b.serial))[0]!;
      expect([site.serial, site.label, site.address]).toEqual([first.serial, first.label, first.address]);
    }
    const batch = inCounty.find((d) => d.batchNumber)!.batchNumber!;
    expect(counts(await rows(email, { by: 'site', county, batch }))).toEqual(
      rollUp(inCounty.filter(fedBy(batch)), (d) => [String(d.location_group)]),
    );
  });

  it('groups market partners by company ignoring case, and counts a company’s counties', async () => {
    const email = 'distributor@demo.test';
    const devices = whole[email]!;
    const partners = await rows(email, { by: 'partner' });
    expect(partners.length).toBeGreaterThan(0);
    expect(counts(partners)).toEqual(rollUp(devices, (d) => d.market_partners.map((p) => company(p.company)).filter(Boolean)));
    const key = partners[0]!.key;
    expect(partners[0]!.name.toLowerCase()).toBe(key);
    expect(counts(await rows(email, { by: 'county', partner: key.toUpperCase() }))).toEqual(
      rollUp(
        devices.filter((d) => d.market_partners.some((p) => company(p.company) === key)),
        (d) => (d.location_id == null ? [] : [String(d.location_id)]),
      ),
    );
  });

  it('a bad query is a 400 naming the parameter', async () => {
    const res = await get('distributor@demo.test', { by: 'planet' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('by is one of county, site, partner, batch.');
    const county = await get('distributor@demo.test', { by: 'site', county: 'x' });
    expect(county.status).toBe(400);
    expect(JSON.stringify(county.body)).toContain('county is a county id.');
  });
});
