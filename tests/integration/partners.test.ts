import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray, isNotNull, sql } from 'drizzle-orm';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeAck } from '@fleet/shared';
import { devices, userExclusiveDevices, users } from '../../server/src/db/schema.ts';
import type { DeviceAccessHub } from '../../server/src/partners/device-access.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
const PASSWORD = 'Demo1234';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET /api/v1/allUser and the exclusive-device calls: each role, validation, and the partner's scope after each write. */
describe.each(BACKENDS)('market partners and exclusive devices on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const who of ['distributor', 'client', 'partner', 'partner2']) {
      keys[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: PASSWORD })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (who: string) => ({ Authorization: `Token ${who === 'maintenance' ? h.config.maintenanceToken : keys[who]}` });
  const get = (who: string, path: string) => request(h.app).get(path).set(as(who));
  const post = (who: string, path: string, body: unknown) =>
    request(h.app)
      .post(path)
      .set(as(who))
      .send(body as object);
  const userId = async (email: string) =>
    (await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  /** The partner's exclusive serials as stored. */
  const stored = async (email: string) =>
    (
      await h.database.db
        .select({ serial: devices.serial })
        .from(userExclusiveDevices)
        .innerJoin(devices, eq(devices.id, userExclusiveDevices.deviceId))
        .where(eq(userExclusiveDevices.userId, await userId(email)))
    )
      .map((r) => r.serial)
      .sort();
  /** A placed device no partner has. */
  const unclaimed = async () => {
    const rows = await h.database.db
      .select({ serial: devices.serial })
      .from(devices)
      .where(
        sql`${isNotNull(devices.groupId)} and not exists (select 1 from user_exclusive_devices x where x.device_id = ${devices.id})`,
      )
      .orderBy(devices.serial);
    return rows.map((r) => r.serial);
  };
  const serials = (rows: { serial: string }[]) => rows.map((r) => r.serial).sort();

  it('GET /allUser: every account with company and exclusive devices, for distributors only', async () => {
    const res = await get('distributor', '/api/v1/allUser');
    expect(res.status).toBe(200);
    const partner = res.body.find((u: { email: string }) => u.email === 'partner@demo.test');
    expect(partner).toMatchObject({
      company: 'Big Easy Events',
      user_type: 'market-partner',
      role: 'distributor',
      activated: true,
    });
    expect([...partner.exclusive_device_serials].sort()).toEqual(await stored('partner@demo.test'));
    expect(partner.exclusive_devices).toHaveLength(partner.exclusive_device_serials.length);
    const ids = (
      await h.database.db
        .select({ id: devices.id })
        .from(devices)
        .where(inArray(devices.serial, partner.exclusive_device_serials))
    ).map((r) => r.id);
    expect([...partner.exclusive_devices].sort()).toEqual(ids.sort());
    const client = res.body.find((u: { email: string }) => u.email === 'client@demo.test');
    expect(client).toMatchObject({ user_type: 'client', exclusive_device_serials: [], exclusive_devices: [] });
    expect(client.brands.length).toBeGreaterThan(0);
    // No password hash or token leaks into the answer.
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
    for (const who of ['client', 'partner', 'maintenance']) expect((await get(who, '/api/v1/allUser')).status).toBe(403);
    expect((await request(h.app).get('/api/v1/allUser')).status).toBe(401);
  });

  it('adds devices to a partner, which then sees them in the device list, sites and overview', async () => {
    const [serial] = await unclaimed();
    expect(serial).toBeTruthy();
    const before = { list: await get('partner', '/api/v1/device'), overview: await get('partner', '/api/v1/overview') };
    expect(serials(before.list.body)).not.toContain(serial);

    const res = await post('distributor', '/api/v1/addExclusiveDevices/PARTNER@demo.test', { deviceSerials: [serial, serial] });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('partner@demo.test');
    expect(res.body.exclusive_device_serials).toContain(serial);
    expect(await stored('partner@demo.test')).toEqual([...res.body.exclusive_device_serials].sort());

    const list = await get('partner', '/api/v1/device');
    expect(serials(list.body)).toEqual(await stored('partner@demo.test'));
    // The list answer's market_partners (kept by the list_json triggers) names the partner at once.
    expect(list.body.find((d: { serial: string }) => d.serial === serial).market_partners).toEqual([
      expect.objectContaining({ company: 'Big Easy Events' }),
    ]);
    expect((await get('partner', `/api/v1/device/${serial}`)).status).toBe(200);
    const groups = (await get('partner', '/api/v1/deviceGroup')).body as { devices: { serial: string }[] }[];
    expect(groups.flatMap((g) => g.devices.map((d) => d.serial)).sort()).toEqual(await stored('partner@demo.test'));
    const overview = await get('partner', '/api/v1/overview');
    expect(overview.body.total_devices).toBe(before.overview.body.total_devices + 1);

    // Adding again changes nothing.
    const again = await post('distributor', '/api/v1/addExclusiveDevices/partner@demo.test', { deviceSerials: [serial] });
    expect(again.body.exclusive_device_serials).toEqual(res.body.exclusive_device_serials);
  });

  it('removes devices: the partner no longer reads them anywhere', async () => {
    const mine = await stored('partner@demo.test');
    const [gone] = mine;
    const overviewBefore = (await get('partner', '/api/v1/overview')).body.total_devices;
    const res = await post('distributor', '/api/v1/removeExclusiveDevices/partner@demo.test', { deviceSerials: [gone] });
    expect(res.status).toBe(200);
    expect(res.body.exclusive_device_serials).not.toContain(gone);
    expect(await stored('partner@demo.test')).toEqual(mine.filter((s) => s !== gone));
    expect(serials((await get('partner', '/api/v1/device')).body)).toEqual(mine.filter((s) => s !== gone));
    expect((await get('partner', `/api/v1/device/${gone}`)).status).toBe(404);
    const groups = (await get('partner', '/api/v1/deviceGroup')).body as { devices: { serial: string }[] }[];
    expect(groups.flatMap((g) => g.devices.map((d) => d.serial))).not.toContain(gone);
    expect((await get('partner', '/api/v1/overview')).body.total_devices).toBe(overviewBefore - 1);
    // The distributor's list no longer names the partner on that device.
    const d = (await get('distributor', `/api/v1/device/${gone}`)).body;
    expect((d.market_partners ?? []).map((p: { company: string }) => p.company)).not.toContain('Big Easy Events');
    // Removing one the partner does not have is accepted and changes nothing.
    expect(
      (await post('distributor', '/api/v1/removeExclusiveDevices/partner@demo.test', { deviceSerials: [gone] })).status,
    ).toBe(200);
  });

  it('validates: field messages, nothing half-saved, 404 for an unknown user, 400 for a non-partner', async () => {
    const before = await stored('partner@demo.test');
    const [free] = await unclaimed();
    const mixed = await post('distributor', '/api/v1/addExclusiveDevices/partner@demo.test', { deviceSerials: [free, 'NOPE-1'] });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({ deviceSerials: ['Unknown device: NOPE-1'] });
    expect(await stored('partner@demo.test')).toEqual(before);
    expect((await post('distributor', '/api/v1/addExclusiveDevices/partner@demo.test', { deviceSerials: [] })).body).toEqual({
      deviceSerials: ['Choose at least one device.'],
    });
    expect((await post('distributor', '/api/v1/addExclusiveDevices/partner@demo.test', {})).status).toBe(400);
    expect(
      (await post('distributor', '/api/v1/addExclusiveDevices/partner@demo.test', { deviceSerials: 'SP240001' })).body,
    ).toHaveProperty('deviceSerials');
    expect((await post('distributor', '/api/v1/addExclusiveDevices/nobody@demo.test', { deviceSerials: [free] })).status).toBe(
      404,
    );
    const client = await post('distributor', '/api/v1/addExclusiveDevices/client@demo.test', { deviceSerials: [free] });
    expect(client.status).toBe(400);
    expect(client.body).toEqual({ email: ['Only market-partner users have exclusive devices.'] });
  });

  it('refuses clients, market partners and the maintenance credential', async () => {
    const [free] = await unclaimed();
    for (const who of ['client', 'partner', 'partner2', 'maintenance']) {
      for (const path of ['addExclusiveDevices', 'removeExclusiveDevices']) {
        expect((await post(who, `/api/v1/${path}/partner@demo.test`, { deviceSerials: [free] })).status).toBe(403);
      }
    }
    expect(await stored('partner@demo.test')).not.toContain(free);
  });

  it('documents the calls in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    expect(doc.paths['/api/v1/allUser'].get).toBeTruthy();
    expect(doc.paths['/api/v1/addExclusiveDevices/{email}'].post.requestBody).toBeTruthy();
    expect(doc.paths['/api/v1/removeExclusiveDevices/{email}'].post).toBeTruthy();
  });
});

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const PERIOD = 500;

describe('a market partner over the socket', () => {
  let h: Harness;
  let server: http.Server;
  let base = '';
  let rt: Awaited<ReturnType<typeof startRealtime>>;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness('pglite');
    server = http.createServer(h.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = h.app as typeof h.app & { auth: Parameters<typeof startRealtime>[1]['auth']; deviceAccess: DeviceAccessHub };
    rt = await startRealtime(server, {
      db: h.database.db,
      auth: app.auth,
      deviceAccess: app.deviceAccess,
      serviceToken: h.config.serviceToken,
      deviceApiUrl: base,
      periods: { device: PERIOD, deviceCards: PERIOD, simLog: PERIOD, overview: PERIOD },
      tickMs: 50,
    });
    for (const who of ['distributor', 'partner']) {
      keys[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: PASSWORD })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await rt?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    await h?.close();
  });

  const subscribe = (c: Client, sub: Parameters<ClientToServerEvents['subscribe']>[0]) =>
    new Promise<SubscribeAck>((resolve) => c.emit('subscribe', sub, resolve));
  const battery = async (serial: string, percent: number) => {
    await h.database.db.update(devices).set({ batteryPercent: percent }).where(eq(devices.serial, serial));
  };
  const exclusive = async (path: 'addExclusiveDevices' | 'removeExclusiveDevices', serial: string) =>
    request(h.app)
      .post(`/api/v1/${path}/partner@demo.test`)
      .set('Authorization', `Token ${keys.distributor}`)
      .send({ deviceSerials: [serial] });

  it('sees exactly its exclusive devices; a removed device stops arriving at once, and comes back when given back', async () => {
    const mine = (
      (await request(h.app).get('/api/v1/device').set('Authorization', `Token ${keys.partner}`)).body as { serial: string }[]
    ).map((d) => d.serial);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const [kept, taken] = mine as [string, string];
    const c: Client = connect(base, {
      path: '/socket.io',
      auth: { token: keys.partner },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      c.on('connect', () => resolve());
      c.on('connect_error', reject);
    });
    const heard: { serial: string; patch: Record<string, unknown> }[] = [];
    c.on('device:changed', (p) => heard.push(p));
    // A device that is not its own is refused.
    const outside = (await request(h.app).get('/api/v1/device').set('Authorization', `Token ${keys.distributor}`)).body.find(
      (d: { serial: string }) => !mine.includes(d.serial),
    ).serial;
    expect(await subscribe(c, { topic: 'deviceCards', serials: [kept, taken, outside] })).toEqual({
      ok: false,
      error: 'Some devices are outside your scope.',
      refused: [outside],
    });
    expect(await subscribe(c, { topic: 'device', serial: taken })).toEqual({ ok: true, subscribed: [`device:${taken}`] });
    await sleep(PERIOD * 2); // first polls take the snapshots

    await battery(taken, 11);
    await sleep(PERIOD * 3);
    expect(heard.filter((p) => p.serial === taken && p.patch.battery_percent === 11).length).toBeGreaterThanOrEqual(1);

    // Taken away: no further push of it reaches this socket (cards or panel), though the other device's still do.
    expect((await exclusive('removeExclusiveDevices', taken)).status).toBe(200);
    heard.length = 0;
    await battery(taken, 12);
    await battery(kept, 13);
    await sleep(PERIOD * 4);
    expect(heard.filter((p) => p.serial === taken)).toEqual([]);
    expect(heard.filter((p) => p.serial === kept && p.patch.battery_percent === 13)).toHaveLength(1);
    expect(await subscribe(c, { topic: 'device', serial: taken })).toEqual({
      ok: false,
      error: 'No device with this serial.',
      refused: [taken],
    });

    // Given back: subscribing again brings its pushes back.
    expect((await exclusive('addExclusiveDevices', taken)).status).toBe(200);
    expect(await subscribe(c, { topic: 'deviceCards', serials: [taken] })).toEqual({
      ok: true,
      subscribed: [`deviceCards:${taken}`],
    });
    await sleep(PERIOD * 2);
    heard.length = 0;
    await battery(taken, 14);
    await sleep(PERIOD * 3);
    expect(heard.filter((p) => p.serial === taken && p.patch.battery_percent === 14).length).toBeGreaterThanOrEqual(1);
    c.close();
  });
});
