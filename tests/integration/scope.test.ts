import { eq, inArray, isNotNull, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandClients, devices, userExclusiveDevices, users } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

/** The role rules of spec sections 1 and 6, enforced by the server whatever the client shows. */
describe.each(BACKENDS)('device scope by role on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of ['distributor@demo.test', 'client@demo.test', 'partner@demo.test', 'client2@demo.test']) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (email: string, path: string) => request(h.app).get(path).set('Authorization', `Token ${keys[email]}`);
  const userId = async (email: string) =>
    (await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const serials = (rows: { serial: string }[]) => rows.map((r) => r.serial).sort();

  it('a distributor sees every placed device', async () => {
    const placed = await h.database.db.select({ serial: devices.serial }).from(devices).where(isNotNull(devices.groupId));
    const res = await get('distributor@demo.test', '/api/v1/device');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(60);
    expect(serials(res.body)).toEqual(serials(placed));
  });

  it.each(['client@demo.test', 'client2@demo.test'])('%s sees exactly the devices of brands assigned to it', async (email) => {
    const brandIds = (
      await h.database.db
        .select({ id: brandClients.brandId })
        .from(brandClients)
        .where(eq(brandClients.userId, await userId(email)))
    ).map((r) => r.id);
    expect(brandIds.length).toBeGreaterThan(0);
    const expected = await h.database.db
      .select({ serial: devices.serial })
      .from(devices)
      .where(sql`${inArray(devices.brandId, brandIds)} and ${devices.groupId} is not null`);
    const res = await get(email, '/api/v1/device');
    expect(res.status).toBe(200);
    expect(serials(res.body)).toEqual(serials(expected));
    const all = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(devices)
      .where(isNotNull(devices.groupId));
    expect(res.body.length).toBeLessThan(all[0]!.n);
  });

  it('a market-partner user sees exactly its exclusive devices', async () => {
    const expected = await h.database.db
      .select({ serial: devices.serial })
      .from(userExclusiveDevices)
      .innerJoin(devices, eq(devices.id, userExclusiveDevices.deviceId))
      .where(eq(userExclusiveDevices.userId, await userId('partner@demo.test')));
    expect(expected.length).toBeGreaterThan(0);
    const res = await get('partner@demo.test', '/api/v1/device');
    expect(serials(res.body)).toEqual(serials(expected));
    for (const d of res.body) expect(d.market_partners.map((p: { company: string }) => p.company)).toContain('Big Easy Events');
  });

  it('a device outside the caller scope answers 404, inside 200 with the section 3 fields', async () => {
    const mine = (await get('client@demo.test', '/api/v1/device')).body as { serial: string }[];
    const all = (await get('distributor@demo.test', '/api/v1/device')).body as { serial: string }[];
    const outside = all.find((d) => !mine.some((m) => m.serial === d.serial))!;
    const inside = mine[0]!;

    const hidden = await get('client@demo.test', `/api/v1/device/${outside.serial}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ detail: 'No device with this serial.' });
    expect((await get('partner@demo.test', `/api/v1/device/${inside.serial}`)).status).toBe(
      (await get('partner@demo.test', '/api/v1/device')).body.some((d: { serial: string }) => d.serial === inside.serial)
        ? 200
        : 404,
    );

    const res = await get('client@demo.test', `/api/v1/device/${inside.serial}`);
    expect(res.status).toBe(200);
    for (const field of [
      'serial',
      'label',
      'number',
      'address',
      'location',
      'location_id',
      'location_group',
      'brand',
      'brand_name',
      'location_event_type',
      'left_pump_type',
      'right_pump_type',
      'batch',
      'batchNumber',
      'batch2Number',
      'batch2',
      'level_sensor1',
      'level_sensor2',
      'volume_remain',
      'volume_remain2',
      'is_pause',
      'is_activated',
      'active',
      'is_online',
      'is_registration',
      'is_warning',
      'is_batch_warning',
      'is_maintenance',
      'warning_lists',
      'is_enabled_vandalism',
      'is_enabled_maintenance',
      'pending_flags',
      'poweroff_time',
      'wakeup1_time',
      'next_wakeup_time',
      'core_ver',
      'signal_quality',
      'battery_warning',
      'battery_volt',
      'battery_percent',
      'rental',
      'simcardPhoneNumber',
      'imei',
      'simSerialNumber',
      'id',
    ]) {
      expect(res.body, field).toHaveProperty(field);
    }
    expect(res.body.pending_flags).toEqual({
      activation_changed: expect.any(Boolean),
      rental_changed: expect.any(Boolean),
      others: expect.any(Boolean),
    });
  });

  it('an unknown serial and a 10 kB serial answer 4xx, never 500', async () => {
    expect((await get('distributor@demo.test', '/api/v1/device/NOPE')).status).toBe(404);
    expect((await get('distributor@demo.test', `/api/v1/device/${'x'.repeat(10_240)}`)).status).toBe(400);
  });

  it('no token: 401 on the device calls', async () => {
    expect((await request(h.app).get('/api/v1/device')).status).toBe(401);
    expect((await request(h.app).get('/api/v1/device/SP240001')).status).toBe(401);
  });
});
