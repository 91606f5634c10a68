import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_BATTERY_PERCENT } from '@fleet/shared';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

type Bucket = Record<
  'brand_id' | 'location_id' | 'total' | 'online' | 'warning' | 'maintenance' | 'pause' | 'low_battery' | 'synced',
  number
>;

/**
 * The kept device counts (device_counts, migration 0023): after a mix of check-ins, edits, deletes, site moves
 * and scope changes, they equal a full recount of the fleet, and devicePage's totals read from them equal
 * the whole list's numbers.
 */
describe.each(BACKENDS)('kept device counts on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of ['distributor@demo.test', 'client@demo.test'])
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
  });
  afterAll(async () => {
    await h?.close();
  });
  const rows = async <T>(q: ReturnType<typeof sql>) => ((await h.database.db.execute(q)) as unknown as { rows: T[] }).rows;
  const kept = () =>
    rows<Bucket>(sql`select brand_id, location_id, total, online, warning, maintenance, pause, low_battery, synced
                     from device_counts where total <> 0 or online <> 0 or warning <> 0 or maintenance <> 0 or pause <> 0
                       or low_battery <> 0 or synced <> 0 order by 1, 2`);
  const recount = () =>
    rows<Bucket>(sql`
      select coalesce(d.brand_id, 0) as brand_id, coalesce(g.location_id, 0) as location_id, count(*)::int as total,
             (count(*) filter (where d.is_online))::int as online, (count(*) filter (where d.is_warning))::int as warning,
             (count(*) filter (where d.is_maintenance))::int as maintenance, (count(*) filter (where d.is_pause))::int as pause,
             (count(*) filter (where d.battery_percent < ${LOW_BATTERY_PERCENT}))::int as low_battery,
             (count(*) filter (where d.is_registration))::int as synced
      from devices d join device_groups g on g.id = d.group_id group by 1, 2 order by 1, 2`);
  const total = async (email: string, query: Record<string, string | number> = {}) =>
    (await request(h.app).get('/api/v1/devicePage').query(query).set('Authorization', `Token ${keys[email]}`)).body
      .total as number;
  const listed = async (email: string) =>
    ((await request(h.app).get('/api/v1/device').set('Authorization', `Token ${keys[email]}`)).body as unknown[]).length;

  it('start equal to a recount of the seeded fleet', async () => {
    expect((await kept()).length).toBeGreaterThan(1);
    expect(await kept()).toEqual(await recount());
  });

  it('stay equal after check-ins, edits, deletes, a site moving county and a scope change', async () => {
    const placed = await rows<{ id: number; serial: string; group_id: number }>(
      sql`select id, serial, group_id from devices where group_id is not null order by id`,
    );
    // Check-ins: one update of the device row each, as gateway_checkin_finish makes it.
    for (const d of placed.slice(0, 12))
      await h.database.db.execute(sql`update devices set is_online = not is_online, battery_percent = ${(d.id * 7) % 100},
        is_warning = not is_warning, last_seen_at = now() where id = ${d.id}`);
    // One that changes nothing counted (the common check-in): nothing to move.
    await h.database.db.execute(sql`update devices set last_seen_at = now() where id = ${placed[20]!.id}`);
    // Edits: a brand and a site change.
    const otherBrand = (await rows<{ id: number }>(sql`select id from brands order by id desc limit 1`))[0]!.id;
    await h.database.db.execute(sql`update devices set brand_id = ${otherBrand}, is_pause = true where id = ${placed[13]!.id}`);
    await h.database.db.execute(sql`update devices set group_id = ${placed[30]!.group_id} where id = ${placed[14]!.id}`);
    // A delete through the API (the device leaves its site), and a device row deleted outright.
    const del = await request(h.app)
      .post(`/api/v1/deleteDevice/${placed[15]!.serial}`)
      .set('Authorization', `Token ${keys['distributor@demo.test']}`);
    expect(del.status).toBe(200);
    await h.database.db.execute(sql`delete from devices where id = ${placed[16]!.id}`);
    // A site moves to another county.
    const county = (await rows<{ id: number }>(sql`select id from locations order by id desc limit 1`))[0]!.id;
    await h.database.db.execute(sql`update device_groups set location_id = ${county} where id = ${placed[40]!.group_id}`);
    expect(await kept()).toEqual(await recount());

    // A scope change (a brand assigned to the client): the client's totals follow at once.
    const client = (await rows<{ id: number }>(sql`select id from users where email = 'client@demo.test'`))[0]!.id;
    await h.database.db.execute(
      sql`insert into brand_clients (brand_id, user_id) values (${otherBrand}, ${client}) on conflict do nothing`,
    );
    for (const email of ['distributor@demo.test', 'client@demo.test']) expect(await total(email)).toBe(await listed(email));
    expect(await total('distributor@demo.test', { status: 'offline', county })).toBe(
      (
        await rows<{ n: number }>(sql`select count(*)::int as n from devices d join device_groups g on g.id = d.group_id
        where g.location_id = ${county} and not d.is_online`)
      )[0]!.n,
    );
  });
});
