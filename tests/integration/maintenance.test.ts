import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaintenanceDevice } from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { devices, maintenanceCredentials, pumpEvents } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
const HOUR = 3_600_000;

describe.each(BACKENDS)('maintenance views on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const who of ['distributor', 'client', 'partner']) {
      keys[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
    keys.maintenance = h.config.maintenanceToken;
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (who: string) => ({ Authorization: `Token ${keys[who] ?? who}` });
  const get = (who: string, path: string) => request(h.app).get(path).set(as(who));
  const post = (who: string, path: string, body: unknown = {}) =>
    request(h.app)
      .post(path)
      .set(as(who))
      .send(body as object);
  const serialsOf = async (who: string) => ((await get(who, '/api/v1/device')).body as { serial: string }[]).map((d) => d.serial);

  /** Replaces a device's dispensing history with `perHour` ml every hour of the last `hours` hours (pump 1). */
  async function simulate(serial: string, perHour: number, hours: number, remainingMl: number) {
    const [d] = await h.database.db.select({ id: devices.id }).from(devices).where(eq(devices.serial, serial));
    await h.database.db.delete(pumpEvents).where(eq(pumpEvents.deviceId, d!.id));
    const now = Date.now();
    if (hours > 0) {
      await h.database.db.insert(pumpEvents).values(
        Array.from({ length: hours }, (_, k) => ({
          deviceId: d!.id,
          pumpNumber: 1,
          occurredAt: new Date(now - (k + 0.5) * HOUR),
          volumeMl: perHour,
        })),
      );
    }
    await h.database.db
      .update(devices)
      .set({ volumeRemain: remainingMl, leftPumpType: 'Sunscreen' })
      .where(eq(devices.id, d!.id));
  }

  it('forecasts a simulated device with a known rate: 10 ml an hour for 4 weeks, 720 ml left, is ~3 days', async () => {
    const serial = 'SP240003';
    await simulate(serial, 10, 28 * 24, 720);
    const res = await get('maintenance', '/api/v1/maintenanceDevices');
    expect(res.status).toBe(200);
    const row = (res.body as MaintenanceDevice[]).find((d) => d.serial === serial)!;
    expect(row).toBeTruthy();
    const pump = row.pumps.find((p) => p.pump === 1)!;
    expect(pump.forecast.kind).toBe('forecast');
    expect(pump.forecast.kind === 'forecast' && pump.forecast.days).toBeCloseTo(3, 1);
    expect(pump.forecast.kind === 'forecast' && pump.forecast.mlPerDay).toBeCloseTo(240, 0);
    expect(pump.forecast_text).toBe("~3 days at the last 4 weeks' rate");
    expect(row.reasons).toContain('runs_out_soon');
    expect(row.site.address).toBeTruthy();
  });

  it('forecasts by hour of the week from check-ins through the gateway: a device busy only one day a week runs dry on that day', async () => {
    // SP240004 dispenses only on one weekday (the UTC day two days from today), 10:00-16:00 UTC, 30 ml an
    // hour as 12 shots of 2.5 ml, for the last five weeks (the oldest before the 4-week window, so the
    // window is whole). 90 ml left lasts the first 3 busy hours of the next busy day: it runs dry there at
    // 13:00 UTC. A flat average (180 ml a week = 25.7 ml a day) would say 3.5 days whatever the weekday;
    // a slot of the wrong weekday or hour moves the day or the hour.
    const serial = 'SP240004';
    const [d] = await h.database.db.select({ id: devices.id }).from(devices).where(eq(devices.serial, serial));
    await h.database.db.delete(pumpEvents).where(eq(pumpEvents.deviceId, d!.id));
    await h.database.db.update(devices).set({ leftPumpType: 'Sunscreen' }).where(eq(devices.id, d!.id));
    const secret = (await post('distributor', `/api/v1/deviceSecret/${serial}`)).body.secret as string;
    const DAY = 24 * HOUR;
    const now = Date.now();
    const busyDay = Math.floor(now / DAY) * DAY + 2 * DAY; // 00:00 UTC two days from today
    const dispenses: { seq: number; pump: 1; at: string; ml: number }[] = [];
    for (let week = 5; week >= 1; week--) {
      for (let hour = 10; hour < 16; hour++) {
        for (let shot = 0; shot < 12; shot++) {
          dispenses.push({
            seq: dispenses.length + 1,
            pump: 1,
            at: new Date(busyDay - week * 7 * DAY + hour * HOUR + shot * 5 * 60_000 + 60_000).toISOString(),
            ml: 2.5,
          });
        }
      }
    }
    const checkin = await request(h.app)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`)
      .send({
        sentAt: new Date(now).toISOString(),
        dispenses,
        levels: [{ pump: 1, at: new Date(now - 60_000).toISOString(), sensor: true, volumeRemain: 90 }],
      });
    expect(checkin.status).toBe(200);
    expect(checkin.body.accepted).toMatchObject({ dispenses: 5 * 6 * 12, duplicates: 0, levels: 1 });

    const list = (await get('maintenance', '/api/v1/maintenanceDevices')).body as MaintenanceDevice[];
    const pump = list.find((x) => x.serial === serial)!.pumps.find((p) => p.pump === 1)!;
    const runsDryAt = busyDay + 13 * HOUR;
    const expectedDays = (runsDryAt - now) / DAY;
    expect(pump.volume_remain).toBe(90);
    expect(pump.forecast.kind).toBe('forecast');
    if (pump.forecast.kind !== 'forecast') return;
    // Within a few minutes: the server reads its own clock a moment after `now`.
    expect(Math.abs(pump.forecast.days - expectedDays) * DAY).toBeLessThan(5 * 60_000);
    expect(pump.forecast.days).not.toBeCloseTo(3.5, 1);
    expect(pump.forecast.mlPerDay).toBeCloseTo((4 * 180) / 28, 6);
    expect(pump.forecast.basisDays).toBeCloseTo(28, 6);
    const whole = Math.round(expectedDays);
    expect(pump.forecast_text).toBe(`~${whole} ${whole === 1 ? 'day' : 'days'} at the last 4 weeks' rate`);
  });

  it('says "not enough data" without history, and lists low fluid, low battery, warnings and maintenance, soonest first', async () => {
    await simulate('SP240007', 0, 0, 100);
    await h.database.db.update(devices).set({ batteryPercent: 20 }).where(eq(devices.serial, 'SP240008'));
    await simulate('SP240009', 30, 28 * 24, 240); // 240 ml at 720 ml/day: 8 hours
    const list = (await get('distributor', '/api/v1/maintenanceDevices')).body as MaintenanceDevice[];
    const nodata = list.find((d) => d.serial === 'SP240007')!;
    expect(nodata.reasons).toContain('low_fluid');
    expect(nodata.pumps[0]!.forecast_text).toBe('not enough data');
    expect(list.find((d) => d.serial === 'SP240008')!.reasons).toContain('low_battery');
    expect(list.find((d) => d.serial === 'SP240009')!.pumps[0]!.forecast_text).toBe("less than a day at the last 4 weeks' rate");
    // Soonest to run dry first; devices without any forecast last.
    const days = list.map((d) => d.runs_out_in_days);
    const known = days.filter((x): x is number => x !== null);
    expect(known).toEqual([...known].sort((a, b) => a - b));
    expect(days.slice(known.length).every((x) => x === null)).toBe(true);
    expect(list.findIndex((d) => d.serial === 'SP240009')).toBeLessThan(list.findIndex((d) => d.serial === 'SP240003'));
    // Only devices with a reason are listed; seeded devices in maintenance are among them.
    expect(list.every((d) => d.reasons.length > 0)).toBe(true);
    const inMaintenance = await h.database.db
      .select({ serial: devices.serial })
      .from(devices)
      .where(sql`${devices.isMaintenance} and ${devices.groupId} is not null`);
    for (const { serial } of inMaintenance) expect(list.find((d) => d.serial === serial)?.reasons).toContain('in_maintenance');
  });

  it('scopes the list: a client and a partner see only their own devices', async () => {
    for (const who of ['client', 'partner']) {
      const mine = new Set(await serialsOf(who));
      const list = (await get(who, '/api/v1/maintenanceDevices')).body as MaintenanceDevice[];
      expect(list.every((d) => mine.has(d.serial))).toBe(true);
    }
    expect((await request(h.app).get('/api/v1/maintenanceDevices')).status).toBe(401);
  });

  it("?serials= answers those devices of the caller whatever their reasons (the field app's scan and plan); others are absent", async () => {
    const listed = new Set(
      ((await get('maintenance', '/api/v1/maintenanceDevices')).body as MaintenanceDevice[]).map((d) => d.serial),
    );
    const all = await serialsOf('distributor');
    const placed = (await get('maintenance', `/api/v1/maintenanceDevices?serials=${all.join(',')}`)).body as MaintenanceDevice[];
    const quiet = placed.find((d) => !listed.has(d.serial));
    expect(quiet, 'a placed device needing no visit').toBeDefined();
    const one = await get('maintenance', `/api/v1/maintenanceDevices?serials=${quiet!.serial}`);
    expect(one.status).toBe(200);
    expect((one.body as MaintenanceDevice[]).map((d) => d.serial)).toEqual([quiet!.serial]);
    expect(one.body[0].reasons).toEqual([]);
    expect(one.body[0]).toHaveProperty('brand_id');
    // A client asking for a device that is not its own gets nothing for it.
    const mine = new Set(await serialsOf('client'));
    const notMine = all.find((s) => !mine.has(s))!;
    expect((await get('client', `/api/v1/maintenanceDevices?serials=${notMine},NO-SUCH`)).body).toEqual([]);
    expect((await get('maintenance', '/api/v1/maintenanceDevices?serials=,')).body).toEqual({
      serials: ['serials is a comma-separated list of serials.'],
    });
  });

  it('records what was done: the credential, distributors and partners on their own devices; clients never', async () => {
    const first = await post('maintenance', '/api/v1/maintenanceRecord', {
      serial: 'SP240003',
      actions: ['refilled', 'refilled'],
      note: 'Topped up both pumps',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      serial: 'SP240003',
      actions: ['refilled'],
      note: 'Topped up both pumps',
      recorded_by: 'maintenance',
    });
    expect(first.body.site.timezone_id === null || typeof first.body.site.timezone_id === 'string').toBe(true);
    const second = await post('distributor', '/api/v1/maintenanceRecord', {
      serial: 'SP240007',
      actions: ['batch_replaced', 'repaired'],
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ recorded_by: 'distributor@demo.test', note: '' });
    const partnerOwn = (await serialsOf('partner'))[0]!;
    expect((await post('partner', '/api/v1/maintenanceRecord', { serial: partnerOwn, actions: ['repaired'] })).status).toBe(201);
    const partnerSerials = new Set(await serialsOf('partner'));
    const outside = (await serialsOf('distributor')).find((s) => !partnerSerials.has(s))!;
    const refused = await post('partner', '/api/v1/maintenanceRecord', { serial: outside, actions: ['repaired'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ serial: ['No device with this serial.'] });
    expect((await post('client', '/api/v1/maintenanceRecord', { serial: 'SP240001', actions: ['repaired'] })).status).toBe(403);
    // Validation: field messages, nothing saved.
    const count = async () =>
      Number(
        (
          (await h.database.db.execute(sql`select count(*)::int as n from maintenance_records`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]!.n,
      );
    const before = await count();
    expect((await post('distributor', '/api/v1/maintenanceRecord', { serial: 'SP240003', actions: [] })).body).toEqual({
      actions: ['Choose what was done.'],
    });
    expect(
      (await post('distributor', '/api/v1/maintenanceRecord', { serial: 'SP240003', actions: ['painted'] })).body,
    ).toHaveProperty('actions');
    expect(
      (
        await post('distributor', '/api/v1/maintenanceRecord', {
          serial: 'SP240003',
          actions: ['repaired'],
          note: 'x'.repeat(1001),
        })
      ).body,
    ).toHaveProperty('note');
    expect((await post('distributor', '/api/v1/maintenanceRecord', { actions: ['repaired'] })).body).toHaveProperty('serial');
    expect(await count()).toBe(before);
    // The maintenance credential still changes nothing else.
    expect((await post('maintenance', '/api/v1/setPauseDevice/SP240001', { isPause: true })).status).toBe(403);
  });

  it('lists what was done newest first, scoped, with the site time zone', async () => {
    const all = (await get('distributor', '/api/v1/maintenanceRecords')).body as {
      serial: string;
      performed_at: string;
      site: { timezone_id: string | null };
    }[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const times = all.map((r) => r.performed_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.some((r) => typeof r.site?.timezone_id === 'string')).toBe(true);
    for (const who of ['client', 'partner']) {
      const mine = new Set(await serialsOf(who));
      const rows = (await get(who, '/api/v1/maintenanceRecords')).body as { serial: string }[];
      expect(rows.every((r) => mine.has(r.serial))).toBe(true);
    }
    expect((await get('partner', '/api/v1/maintenanceRecords')).body.length).toBeGreaterThanOrEqual(1);
    expect((await get('maintenance', '/api/v1/maintenanceRecords?limit=1')).body).toHaveLength(1);
    expect((await get('distributor', '/api/v1/maintenanceRecords?limit=0')).status).toBe(400);
  });

  it('keeps the credential hashed; a distributor rotates and revokes it, and a revoked configured value stays revoked after a restart', async () => {
    const stored = await h.database.db.select().from(maintenanceCredentials);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(stored)).not.toContain(h.config.maintenanceToken);
    for (const who of ['client', 'partner', 'maintenance']) {
      expect((await get(who, '/api/v1/maintenanceCredential')).status).toBe(403);
      expect((await post(who, '/api/v1/maintenanceCredential/rotate')).status).toBe(403);
      expect((await post(who, '/api/v1/maintenanceCredential/revoke')).status).toBe(403);
    }
    expect((await get('distributor', '/api/v1/maintenanceCredential')).body).toMatchObject({
      active: 1,
      source: 'configuration',
    });

    const rotated = await post('distributor', '/api/v1/maintenanceCredential/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ revoked: 1, link: `http://portal.test/maintenance#token=${rotated.body.token}` });
    expect((await get(h.config.maintenanceToken, '/api/v1/maintenanceDevices')).status).toBe(401);
    expect((await get(rotated.body.token, '/api/v1/maintenanceDevices')).status).toBe(200);
    expect((await get('distributor', '/api/v1/maintenanceCredential')).body).toMatchObject({ active: 1, source: 'rotation' });

    expect((await post('distributor', '/api/v1/maintenanceCredential/revoke')).body).toEqual({ revoked: 1 });
    expect((await get(rotated.body.token, '/api/v1/maintenanceDevices')).status).toBe(401);

    // A restart with the same configuration does not bring the revoked configured value back.
    const restarted = createApp({
      config: h.config,
      database: h.database,
      mailer: { send: async () => undefined } as never,
      log: () => undefined,
    });
    expect(
      (await request(restarted).get('/api/v1/maintenanceDevices').set('Authorization', `Token ${h.config.maintenanceToken}`))
        .status,
    ).toBe(401);
    // A new configured value is taken.
    const fresh = 'n'.repeat(32);
    const reconfigured = createApp({
      config: { ...h.config, maintenanceToken: fresh },
      database: h.database,
      mailer: { send: async () => undefined } as never,
      log: () => undefined,
    });
    expect((await request(reconfigured).get('/api/v1/maintenanceDevices').set('Authorization', `Token ${fresh}`)).status).toBe(
      200,
    );
  });

  it('documents the calls in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    for (const path of ['/api/v1/maintenanceDevices', '/api/v1/maintenanceRecords', '/api/v1/maintenanceCredential'])
      expect(doc.paths[path].get).toBeTruthy();
    for (const path of [
      '/api/v1/maintenanceRecord',
      '/api/v1/maintenanceCredential/rotate',
      '/api/v1/maintenanceCredential/revoke',
    ])
      expect(doc.paths[path].post).toBeTruthy();
  });
});
