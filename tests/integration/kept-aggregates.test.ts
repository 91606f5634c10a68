import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_BATTERY_PERCENT } from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../../server/src/access/scope.ts';
import { PIN_TUPLE_SQL } from '../../server/src/devices/pin-sql.ts';
import { overviewRepository } from '../../server/src/overview/overview.repository.ts';
import { keptScope } from '../../server/src/sites/kept-scope.ts';
import { sitesRepository } from '../../server/src/sites/sites.repository.ts';
import { sitesService } from '../../server/src/sites/sites.service.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

/** A small deterministic generator, so a failing sequence of changes can be replayed. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

/** Floats compared to 9 significant digits (kept sums add in another order than a scan); everything else exactly. */
function rounded(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return Number(value.toPrecision(9));
  if (Array.isArray(value)) return value.map(rounded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]));
  return value;
}

/**
 * The kept aggregates of migration 0025 (site_counts, site_members, device_pins): after random check-ins,
 * warnings, moves between sites and brands, batch and partner changes, unplacing and deletes, they equal a
 * fresh scan, and the overview, deviceGroup, county and pin answers read from them equal the scans' answers
 * in every scope.
 */
describe.each(BACKENDS)('kept aggregates on %s', (backend) => {
  let h: Harness;
  const viewers: Record<'distributor' | 'client' | 'partner', ScopeViewer> = {
    distributor: { id: 0, access: 'distributor' },
    client: { id: 0, access: 'client' },
    partner: { id: 0, access: 'market-partner' },
  };
  let distributorKey = '';
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const role of Object.keys(viewers) as (keyof typeof viewers)[])
      viewers[role].id = (await rows<{ id: number }>(sql`select id from users where email = ${`${role}@demo.test`}`))[0]!.id;
    distributorKey = (
      await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })
    ).body.auth_token;
  });
  afterAll(async () => {
    await h?.close();
  });
  const rows = async <T>(q: ReturnType<typeof sql>) => ((await h.database.db.execute(q)) as unknown as { rows: T[] }).rows;
  const run = (q: ReturnType<typeof sql>) => h.database.db.execute(q);

  const keptCounts = () =>
    rows(sql`select group_id, brand_id, total, online, warning, maintenance, pause, low_battery, synced, sunscreen_ml,
                    sanitizer_ml, sunscreen_count::float8 as sunscreen_count, sanitizer_count::float8 as sanitizer_count
             from site_counts where total <> 0 order by 1, 2`);
  const freshCounts = () =>
    rows(sql`
      select d.group_id, coalesce(d.brand_id, 0) as brand_id, count(*)::int as total,
             (count(*) filter (where d.is_online))::int as online, (count(*) filter (where d.is_warning))::int as warning,
             (count(*) filter (where d.is_maintenance))::int as maintenance, (count(*) filter (where d.is_pause))::int as pause,
             (count(*) filter (where d.battery_percent < ${LOW_BATTERY_PERCENT}))::int as low_battery,
             (count(*) filter (where d.is_registration))::int as synced,
             sum(case when d.left_pump_type = 'Sunscreen' then d.dispensed_ml1 else 0 end + case when d.right_pump_type = 'Sunscreen' then d.dispensed_ml2 else 0 end)::float8 as sunscreen_ml,
             sum(case when d.left_pump_type = 'Sanitizer' then d.dispensed_ml1 else 0 end + case when d.right_pump_type = 'Sanitizer' then d.dispensed_ml2 else 0 end)::float8 as sanitizer_ml,
             sum(case when d.left_pump_type = 'Sunscreen' then d.dispense_count1 else 0 end + case when d.right_pump_type = 'Sunscreen' then d.dispense_count2 else 0 end)::float8 as sunscreen_count,
             sum(case when d.left_pump_type = 'Sanitizer' then d.dispense_count1 else 0 end + case when d.right_pump_type = 'Sanitizer' then d.dispense_count2 else 0 end)::float8 as sanitizer_count
      from devices d where d.group_id is not null group by 1, 2 order by 1, 2`);
  const keptMembers = () =>
    rows(sql`select group_id, brand_id, devices, brand_ids, batch_ids, partner_ids from site_members order by 1, 2`);
  const freshMembers = () =>
    rows(sql`
      select s.group_id, s.brand as brand_id, s.devices, s.brand_ids, s.batch_ids,
             array(select distinct x.user_id from user_exclusive_devices x join devices e on e.id = x.device_id
                   where e.group_id = s.group_id and (s.brand = -1 or coalesce(e.brand_id, 0) = s.brand) order by 1) as partner_ids
      from (select d.group_id, k.brand,
                   json_agg(json_build_object('serial', d.serial, 'number', d.number) order by d.number, d.serial) as devices,
                   array_remove(array_agg(distinct d.brand_id), null) as brand_ids,
                   array_remove(array_agg(distinct d.batch_id) || array_agg(distinct d.batch2_id), null) as batch_ids
            from devices d cross join lateral (values (coalesce(d.brand_id, 0)), (-1)) as k(brand)
            where d.group_id is not null group by d.group_id, k.brand) s
      order by 1, 2`);
  const keptClientMembers = () =>
    rows(sql`select client_id, group_id, devices, brand_ids, batch_ids from site_client_members order by 1, 2`);
  const freshClientMembers = () =>
    rows(sql`
      select x.user_id as client_id, d.group_id,
             json_agg(json_build_object('serial', d.serial, 'number', d.number) order by d.number, d.serial) as devices,
             array_remove(array_agg(distinct d.brand_id), null) as brand_ids,
             array_remove(array_agg(distinct d.batch_id) || array_agg(distinct d.batch2_id), null) as batch_ids
      from devices d join brand_clients x on x.brand_id = d.brand_id
      where d.group_id is not null group by 1, 2 order by 1, 2`);
  const keptPins = () => rows(sql`select id, brand_id, pin::text as pin from device_pins order by id`);
  const freshPins = () =>
    rows(
      sql`select devices.id, devices.brand_id, ${PIN_TUPLE_SQL}::text as pin from devices where devices.group_id is not null order by devices.id`,
    );

  /** Every table equal to a fresh scan, and every scope's answers read from them equal to the scans' answers. */
  async function expectKeptEqualFresh() {
    expect(rounded(await keptCounts())).toEqual(rounded(await freshCounts()));
    expect(await keptMembers()).toEqual(await freshMembers());
    expect(await keptClientMembers()).toEqual(await freshClientMembers());
    expect(await keptPins()).toEqual(await freshPins());
    const overview = overviewRepository(h.database.db);
    const sites = sitesRepository(h.database.db);
    // deviceGroups: the service's answer from a scan of the devices in scope, what every scope was answered before.
    const scanned = sitesService({ repo: sites });
    const counties = (
      await rows<{ id: number }>(sql`select distinct location_id as id from device_groups where location_id is not null`)
    )
      .map((c) => c.id)
      .slice(0, 3);
    for (const viewer of [viewers.distributor, viewers.client]) {
      const kept = keptScope(viewer)!;
      for (const location of [undefined, ...counties])
        expect(rounded(await overview.keptCounts(kept, location))).toEqual(
          rounded(await overview.counts(deviceScope(viewer), location)),
        );
      for (const view of [{}, { county: counties[0] }, { bbox: [29, -91, 31, -89] as [number, number, number, number] }]) {
        const answer = await sites.keptSitesJson(kept, view);
        expect(JSON.parse(answer)).toEqual(await scanned.deviceGroups(viewer, view));
        // The same text as the service wrote it (keys in its order), but for the spaces json_build_object puts in.
        expect(JSON.stringify(JSON.parse(answer))).toBe(JSON.stringify(await scanned.deviceGroups(viewer, view)));
      }
      const all = viewer.access === 'distributor';
      expect(await sites.keptCounties(kept, all)).toEqual(await sites.counties(deviceScope(viewer), all));
    }
    // The pin feed as served, against the tuples built fresh from the device rows, in the feed's order (by site,
    // then device: it is joined from pieces kept per range of sites, devices.service.ts pinsStream).
    const pins = await request(h.app)
      .get('/api/v1/devicePins')
      .set('Authorization', `Token ${distributorKey}`)
      .set('Cache-Control', 'no-cache');
    expect(pins.status).toBe(200);
    const fresh = await rows<{ json: string }>(sql`
      select coalesce(json_agg(${PIN_TUPLE_SQL} order by devices.group_id, devices.id), '[]')::text as json from devices where devices.group_id is not null`);
    expect(pins.body).toEqual(JSON.parse(fresh[0]!.json));
    // A caller that takes brotli alone gets the feed built whole (pinsJson): in the same order.
    const brotli = await request(h.app)
      .get('/api/v1/devicePins')
      .set('Authorization', `Token ${distributorKey}`)
      .set('Cache-Control', 'no-cache')
      .set('Accept-Encoding', 'br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body).toEqual(JSON.parse(fresh[0]!.json));
  }

  it('start equal to a fresh scan of the seeded fleet', async () => {
    expect((await keptCounts()).length).toBeGreaterThan(1);
    expect((await keptPins()).length).toBeGreaterThan(1);
    // The seed has partners with exclusive devices and a client whose brands hold devices: the scopes are not empty.
    expect((await keptClientMembers()).length).toBeGreaterThan(0);
    expect((await keptMembers()).some((m) => (m as { partner_ids: number[] }).partner_ids.length > 0)).toBe(true);
    expect(
      (await overviewRepository(h.database.db).keptCounts(keptScope(viewers.client)!, undefined)).total_devices,
    ).toBeGreaterThan(0);
    await expectKeptEqualFresh();
  });

  it('stay equal to a fresh scan after random check-ins, warnings, moves, partner changes and deletes', async () => {
    const next = random(46);
    const ids = async (q: ReturnType<typeof sql>) => (await rows<{ id: number }>(q)).map((r) => r.id);
    const brands = await ids(sql`select id from brands order by id`);
    const batches = await ids(sql`select id from batches order by id`);
    const sites = await ids(sql`select id from device_groups order by id`);
    const partners = await ids(sql`select id from users where user_type = 'market-partner' order by id`);
    const clients = await ids(sql`select id from users where email like 'client%' order by id`);
    const pick = <T>(list: T[]) => list[next(list.length)]!;
    for (let step = 0; step < 160; step++) {
      const devices = await ids(sql`select id from devices order by id`);
      const id = pick(devices);
      switch (next(12)) {
        case 0: // a check-in, as gateway_checkin_finish writes it
        case 1:
          await run(sql`update devices set last_seen_at = now(), is_online = true, battery_percent = ${next(100)},
            dispense_count1 = dispense_count1 + ${next(5)}, dispensed_ml1 = dispensed_ml1 + ${next(300) / 7},
            dispensed_ml2 = dispensed_ml2 + ${next(50) / 3} where id = ${id}`);
          break;
        case 2: // warnings and flags
          await run(sql`update devices set is_warning = not is_warning, is_batch_warning = ${next(2) === 1},
            is_maintenance = ${next(2) === 1}, is_pause = ${next(2) === 1}, is_online = ${next(2) === 1} where id = ${id}`);
          break;
        case 3: // to another site
          await run(sql`update devices set group_id = ${pick(sites)}, lat = lat + 0.001 where id = ${id}`);
          break;
        case 4: // to another brand, or none
          await run(sql`update devices set brand_id = ${next(5) === 0 ? null : pick(brands)} where id = ${id}`);
          break;
        case 5: // batches, pump types, number and label
          await run(sql`update devices set batch_id = ${pick(batches)}, batch2_id = ${next(3) === 0 ? null : pick(batches)},
            right_pump_type = ${pick(['Sunscreen', 'Sanitizer', 'Unspecified'])}, number = ${next(9)},
            label = ${`Unit ${next(1000)}`} where id = ${id}`);
          break;
        case 6: // a partner's exclusive devices
          if (next(2) === 0)
            await run(
              sql`insert into user_exclusive_devices (user_id, device_id) values (${pick(partners)}, ${id}) on conflict do nothing`,
            );
          else await run(sql`delete from user_exclusive_devices where device_id = ${id}`);
          break;
        case 7: // unplaced (the available list), or placed again
          await run(sql`update devices set group_id = case when group_id is null then ${pick(sites)}::int end where id = ${id}`);
          break;
        case 8: // a site moves county
          await run(sql`update device_groups set location_id = (select id from locations order by id offset ${next(3)} limit 1)
            where id = ${pick(sites)}`);
          break;
        case 9: // several devices in one statement
          await run(
            sql`update devices set is_online = not is_online, group_id = ${pick(sites)} where id in (${id}, ${pick(devices)}, ${pick(devices)})`,
          );
          break;
        case 10: // a brand assigned to a client, or taken away
          if (next(2) === 0)
            await run(
              sql`insert into brand_clients (brand_id, user_id) values (${pick(brands)}, ${pick(clients)}) on conflict do nothing`,
            );
          else await run(sql`delete from brand_clients where brand_id = ${pick(brands)} and user_id = ${pick(clients)}`);
          break;
        default: // deleted outright
          if (devices.length > 20) await run(sql`delete from devices where id = ${id}`);
      }
    }
    await expectKeptEqualFresh();
  });
});
