import { eq, isNotNull, isNull, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceGroups, devices, locations, pendingChanges, rentals } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
type Role = 'distributor' | 'client' | 'partner';

/** The device calls of spec section 7 for every role, with each validation message of section 5. */
describe.each(BACKENDS)('device calls on %s', (backend) => {
  let h: Harness;
  const key: Record<Role | 'client2', string> = { distributor: '', client: '', partner: '', client2: '' };
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const role of Object.keys(key) as (keyof typeof key)[]) {
      key[role] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${role}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });
  const as = (role: keyof typeof key) => ({
    get: (path: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`),
    post: (path: string, body?: object) =>
      request(h.app).post(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`).send(body),
    put: (path: string, body?: object) =>
      request(h.app).put(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`).send(body),
  });
  const row = async (serial: string) => (await h.database.db.select().from(devices).where(eq(devices.serial, serial)))[0]!;
  const form = (over: Record<string, unknown> = {}) => ({
    serialNumber: 'SP260002',
    deviceName: 'Kenner Pool',
    brandId: 1,
    deviceNumber: 1,
    batchNumber: 'SPF-2602',
    batch2Number: '',
    address: '1800 Williams Blvd, Kenner, LA 70062',
    location: { lat: 29.994, lng: -90.2417 },
    leftPumpType: 'Sunscreen',
    rightPumpType: 'Unspecified',
    locationEventType: 'SITE',
    ...over,
  });

  describe('lists', () => {
    it('deviceRegistered lists serial, label, brand, location_id within scope', async () => {
      const all = await as('distributor').get('/deviceRegistered');
      const mine = await as('client').get('/deviceRegistered');
      expect(all.status).toBe(200);
      expect(Object.keys(all.body[0]).sort()).toEqual(['brand', 'label', 'location_id', 'serial']);
      expect(mine.body.length).toBe((await as('client').get('/device')).body.length);
      expect(mine.body.length).toBeLessThan(all.body.length);
    });

    it('avaliableDevice lists the unplaced serials to distributors only', async () => {
      const res = await as('distributor').get('/avaliableDevice');
      expect(res.status).toBe(200);
      const unplaced = await h.database.db.select({ serial: devices.serial }).from(devices).where(isNull(devices.groupId));
      expect(res.body.map((d: { serial: string }) => d.serial).sort()).toEqual(unplaced.map((d) => d.serial).sort());
      expect((await as('client').get('/avaliableDevice')).status).toBe(403);
      expect((await as('partner').get('/avaliableDevice')).status).toBe(403);
      expect((await request(h.app).get('/api/v1/avaliableDevice')).status).toBe(401);
    });
  });

  describe('POST /addDevice', () => {
    it('answers each section 5 message for an empty form and places nothing', async () => {
      const res = await as('distributor').post('/addDevice', {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        serialNumber: ['Please select the serial number in the list above'],
        deviceName: ['Required'],
        brandId: ['Required'],
        deviceNumber: ['Required'],
        batchNumber: ['Required'],
        address: ['Required'],
        location: ['Please Select Address From DropDown'],
      });
    });

    it('asks for the right batch when the right pump holds a fluid', async () => {
      const res = await as('distributor').post('/addDevice', form({ rightPumpType: 'Sanitizer', batch2Number: '' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ batch2Number: ['Required'] });
    });

    it.each([
      ['a placed serial', { serialNumber: 'SP240001' }, { serialNumber: ['Please select the serial number in the list above'] }],
      ['an unknown serial', { serialNumber: 'NOPE' }, { serialNumber: ['Please select the serial number in the list above'] }],
      ['device number 100', { deviceNumber: 100 }, { deviceNumber: ['Device numbers go from 1 to 99.'] }],
      ['device number 0', { deviceNumber: '0' }, { deviceNumber: ['Device numbers go from 1 to 99.'] }],
      ['an expired batch', { batchNumber: 'SPF-2504' }, { batchNumber: ['This batch is expired or recalled.'] }],
      ['a recalled batch', { batchNumber: 'SPF-2507' }, { batchNumber: ['This batch is expired or recalled.'] }],
      [
        'a sanitizer batch on a sunscreen pump',
        { batchNumber: 'SAN-2601' },
        { batchNumber: ['This batch does not hold sunscreen.'] },
      ],
      ['an unknown brand', { brandId: 999 }, { brandId: ['Unknown brand.'] }],
      ['no coordinates', { location: null }, { location: ['Please Select Address From DropDown'] }],
      [
        'a 10 kB name',
        { deviceName: 'x'.repeat(10_240) },
        { deviceName: ['Ensure this field has no more than 120 characters.'] },
      ],
    ])('refuses %s', async (_name, over, expected) => {
      const before = await row('SP260002');
      const res = await as('distributor').post('/addDevice', form(over));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
      expect(await row('SP260002')).toEqual(before);
    });

    it.each(['client', 'partner'] as const)('is forbidden to %s', async (role) => {
      expect((await as(role).post('/addDevice', form())).status).toBe(403);
      expect((await row('SP260002')).groupId).toBeNull();
    });

    it('places an available serial on a new site in the county holding its coordinates', async () => {
      const res = await as('distributor').post('/addDevice', form());
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        serial: 'SP260002',
        label: 'Kenner Pool',
        number: 1,
        brand: 1,
        batchNumber: 'SPF-2602',
        location: { lat: 29.994, lng: -90.2417 },
        timezone_id: 'America/Chicago',
      });
      const [site] = await h.database.db.select().from(deviceGroups).where(eq(deviceGroups.id, res.body.location_group));
      const [county] = await h.database.db.select().from(locations).where(eq(locations.id, site!.locationId!));
      expect(county!.name).toBe('Jefferson Parish');
      const available = (await as('distributor').get('/avaliableDevice')).body.map((d: { serial: string }) => d.serial);
      expect(available).not.toContain('SP260002');
      expect((await as('distributor').get('/device/SP260002')).status).toBe(200);
      // The client of brand 1 now sees it too.
      expect((await as('client').get('/device/SP260002')).status).toBe(200);
    });

    it('refuses a device number already used at the same site', async () => {
      const res = await as('distributor').post('/addDevice', form({ serialNumber: 'SP260004', deviceName: 'Kenner Gate' }));
      expect(res.status).toBe(400);
      expect(res.body.deviceNumber[0]).toMatch(/^Number 1 is already used at this site/);
    });

    it('adds the county from the US counties data set when the portal has none there, and works in Australia', async () => {
      const br = await as('distributor').post(
        '/addDevice',
        form({
          serialNumber: 'SP260004',
          address: '100 North Blvd, Baton Rouge, LA 70801',
          location: { lat: 30.4486, lng: -91.1875 },
        }),
      );
      expect(br.status).toBe(201);
      const [county] = await h.database.db.select().from(locations).where(eq(locations.id, br.body.location_id));
      expect(county).toMatchObject({ name: 'East Baton Rouge Parish', state: 'Louisiana', fips: '22033' });
      const au = await as('distributor').post(
        '/addDevice',
        form({ serialNumber: 'SP260006', address: 'Bondi Beach, Sydney NSW 2026', location: { lat: -33.8915, lng: 151.2767 } }),
      );
      expect(au.status).toBe(201);
      expect(au.body).toMatchObject({ location_id: null, timezone_id: 'Australia/Sydney' });
    });
  });

  describe('PUT /editDevice/{serial} and POST /deleteDevice/{serial}', () => {
    it('edits label, number and brand, but never pump types', async () => {
      const res = await as('distributor').put(
        '/editDevice/SP260002',
        form({ deviceName: 'Kenner Pool Deck', deviceNumber: 7, brandId: 2 }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ label: 'Kenner Pool Deck', number: 7, brand: 2 });
      const bad = await as('distributor').put(
        '/editDevice/SP260002',
        form({ rightPumpType: 'Sanitizer', batch2Number: 'SAN-2601' }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ rightPumpType: ['Pump types cannot be changed.'] });
      expect((await row('SP260002')).rightPumpType).toBe('Unspecified');
    });

    it('answers 404 for an unknown serial and 403 to clients', async () => {
      expect((await as('distributor').put('/editDevice/NOPE', form({ serialNumber: 'NOPE' }))).status).toBe(404);
      expect((await as('client').put('/editDevice/SP240001', form({ serialNumber: 'SP240001' }))).status).toBe(403);
      expect((await as('client').post('/deleteDevice/SP240001')).status).toBe(403);
    });

    it('takes a device off its site; its serial is available again and its site goes when empty', async () => {
      const site = (await row('SP260006')).groupId!;
      const res = await as('distributor').post('/deleteDevice/SP260006');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'Device has been deleted' });
      expect((await as('distributor').get('/device/SP260006')).status).toBe(404);
      expect((await as('distributor').get('/avaliableDevice')).body.map((d: { serial: string }) => d.serial)).toContain(
        'SP260006',
      );
      expect(await h.database.db.select().from(deviceGroups).where(eq(deviceGroups.id, site))).toEqual([]);
    });
  });

  describe('device controls', () => {
    it('a market partner toggles activation on its own device; the change is pending until the device wakes', async () => {
      const res = await as('partner').post('/set_device_config/SP240009', { active: false });
      expect(res.status).toBe(200);
      expect(res.body.detail).toBe('Your config setup has been successfully saved.');
      expect(res.body.device).toMatchObject({ is_activated: false, pending_flags: { activation_changed: true } });
      const pending = await h.database.db.select().from(pendingChanges).where(eq(pendingChanges.deviceId, res.body.device.id));
      expect(pending.filter((p) => p.status === 'pending' && p.setting === 'active')).toHaveLength(1);
    });

    it('a second request for the same setting replaces the first', async () => {
      await as('partner').post('/set_device_config/SP240009', { active: true });
      const d = await row('SP240009');
      const pending = await h.database.db.select().from(pendingChanges).where(eq(pendingChanges.deviceId, d.id));
      expect(
        pending
          .filter((p) => p.setting === 'active')
          .map((p) => p.status)
          .sort(),
      ).toEqual(['pending', 'replaced']);
      expect(d.isActivated).toBe(true);
    });

    it('refuses activation changes while a rental plan is on', async () => {
      const rented = (
        await h.database.db.select({ serial: devices.serial }).from(rentals).innerJoin(devices, eq(devices.id, rentals.deviceId))
      )[0]!.serial;
      const res = await as('distributor').post(`/set_device_config/${rented}`, { active: false });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ active: ['Activation cannot change while a rental plan is on.'] });
    });

    it('sets maintenance and anti-vandalism as other pending flags', async () => {
      const m = await as('distributor').post('/set_device_config/SP240020', { is_enabled_maintenance: true });
      expect(m.body.device).toMatchObject({ is_enabled_maintenance: true, pending_flags: { others: true } });
      const v = await as('distributor').post('/set_device_config/SP240020', { is_enabled_vandalism: false });
      expect(v.body.device.is_enabled_vandalism).toBe(false);
    });

    it.each([
      ['two settings at once', { active: true, is_enabled_vandalism: true }],
      ['no setting', {}],
      ['an unknown setting', { reboot: true }],
      ['a string for a boolean', { active: 'yes' }],
    ])('refuses %s with 400', async (_n, body) => {
      expect((await as('distributor').post('/set_device_config/SP240020', body)).status).toBe(400);
    });

    it('is forbidden to clients, and 404 for a partner outside its devices', async () => {
      expect((await as('client').post('/set_device_config/SP240001', { is_enabled_vandalism: true })).status).toBe(403);
      expect((await as('partner').post('/set_device_config/SP240030', { is_enabled_vandalism: true })).status).toBe(404);
      expect((await as('partner').post('/setPauseDevice/SP240030', { isPause: true })).status).toBe(404);
      expect((await row('SP240030')).isPause).toBe(false);
    });

    it('pauses and resumes', async () => {
      const res = await as('distributor').post('/setPauseDevice/SP240002', { isPause: true });
      expect(res.body).toMatchObject({ serial: 'SP240002', is_pause: true, pending_flags: { others: true } });
      expect((await as('distributor').post('/setPauseDevice/SP240002', { isPause: false })).body.is_pause).toBe(false);
      expect((await as('distributor').post('/setPauseDevice/SP240002', {})).body).toEqual({ isPause: ['Required'] });
    });
  });

  describe('pump settings, timers, tsp reset', () => {
    it('reads the setting with fixed steps and its pump mode', async () => {
      const res = await as('client').get('/pumpSetting/SP240001');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ steps_per_second: 300, steps_per_ml: 30, steps_per_second2: 300, steps_per_ml2: 30 });
      expect(res.body.pump_mode).toBeGreaterThanOrEqual(1);
    });

    it('sets a pump mode (1 to 8 = 1/4 to 2 tsp) by mode or by ml per shot', async () => {
      const a = await as('distributor').put('/editPumpSetting/SP240001', { pump_mode: 8 });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({
        detail: 'Your pump settings have been successfully updated.',
        ml_per_shot: 9.858,
        pump_mode: 8,
      });
      const b = await as('distributor').put('/editPumpSetting/SP240001', {
        steps_per_second: 300,
        steps_per_ml: 30,
        ml_per_shot: 1.232,
        vandalism_max_shots: 5,
      });
      expect(b.body).toMatchObject({ pump_mode: 1, vandalism_max_shots: 5 });
    });

    it.each([
      [{ ml_per_shot: 3 }, { ml_per_shot: ['ml_per_shot must be one of the pump modes 1 to 8 (1/4 to 2 tsp).'] }],
      [{ steps_per_second: 200 }, { steps_per_second: ['steps_per_second is fixed at 300.'] }],
      [{ pump_mode: 9 }, { pump_mode: ['Pump mode goes from 1 to 8.'] }],
      [{}, { detail: 'Nothing to change.' }],
    ])('refuses %j', async (body, expected) => {
      const res = await as('distributor').put('/editPumpSetting/SP240001', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    });

    it('clamps registration timers to 1..600 minutes', async () => {
      const res = await as('distributor').post('/deviceRegistrationSetup/SP240003', { powerOffTime: 900, wakeUpTime: 0 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        detail: 'Your time setup has been successfully saved.',
        poweroff_time: 600,
        wakeup1_time: 1,
      });
      expect(await row('SP240003')).toMatchObject({ poweroffTime: '600', wakeup1Time: '1' });
      expect((await as('distributor').post('/deviceRegistrationSetup/SP240003', { powerOffTime: 'soon' })).status).toBe(400);
    });

    it('resets the remaining volume after a refill and clears the low-fluid warning', async () => {
      const before = await row('SP240016');
      expect(before.warningLists).toContain('LEFT_PUMP_VOLUME');
      const res = await as('distributor').post('/resetMl/SP240016', { pumpNumber: 1 });
      expect(res.status).toBe(200);
      expect(res.body.volume_remain).toBe(1500);
      expect(res.body.warning_lists).not.toContain('LEFT_PUMP_VOLUME');
      expect((await as('distributor').post('/resetMl/SP240016', { pumpNumber: 3 })).status).toBe(400);
    });
  });

  describe('rental plans (V2)', () => {
    const plan = {
      serials: ['SP240001', 'SP240003'],
      startDate: '2026-12-01',
      endDate: '2026-12-10',
      startTime: '08:00',
      endTime: '18:30',
      pump2StartTime: null,
      pump2EndTime: null,
    };

    it('sets one plan on several devices and reads it back with its day count', async () => {
      const res = await as('distributor').post('/rentalV2', plan);
      expect(res.status).toBe(200);
      expect(res.body.detail).toBe('New plan has been successfully set');
      const got = await as('distributor').get('/rentalV2/SP240003');
      expect(got.body).toEqual({
        start_date: '2026-12-01',
        end_date: '2026-12-10',
        start_time: '08:00',
        end_time: '18:30',
        pump_2_start_time: null,
        pump_2_end_time: null,
        day_count: 10,
      });
      expect((await as('distributor').get('/device/SP240001')).body.pending_flags.rental_changed).toBe(true);
    });

    it('is all or nothing: an unknown serial saves nothing', async () => {
      const res = await as('distributor').post('/rentalV2', { ...plan, serials: ['SP240002', 'NOPE'] });
      expect(res.status).toBe(404);
      expect((await as('distributor').get('/rentalV2/SP240002')).body.day_count).toBe(0);
    });

    it.each([
      [{ startTime: '08:10' }, 'startTime', 'Times go in 15-minute steps (HH:mm).'],
      [{ endDate: '2026-11-30' }, 'endDate', 'The end date is before the start date.'],
      [{ endTime: '07:00' }, 'endTime', 'The end time must be after the start time.'],
      [{ startDate: '1 Dec' }, 'startDate', 'Use the YYYY-MM-DD format.'],
      [{ serials: [] }, 'serials', 'Select at least one device.'],
    ])('refuses %j', async (over, field, message) => {
      const res = await as('distributor').post('/rentalV2', { ...plan, ...over });
      expect(res.status).toBe(400);
      expect(res.body[field]).toEqual([message]);
    });

    it('schedules the right pump only on dual devices with software 1.0.9 or higher', async () => {
      const single = await as('distributor').post('/rentalV2', {
        ...plan,
        serials: ['SP240002'],
        pump2StartTime: '09:00',
        pump2EndTime: '10:00',
      });
      expect(single.status).toBe(400);
      expect(single.body.pump2StartTime[0]).toMatch(/no right pump/);
      const dual = await as('distributor').post('/rentalV2', {
        ...plan,
        serials: ['SP240001'],
        pump2StartTime: '09:00',
        pump2EndTime: '10:00',
      });
      expect(dual.status).toBe(200);
    });

    it('is forbidden to clients', async () => {
      expect((await as('client').post('/rentalV2', plan)).status).toBe(403);
    });
  });

  describe('sites, counties, overview', () => {
    it('deviceGroup counts match the devices each role sees', async () => {
      for (const role of ['distributor', 'client', 'partner'] as const) {
        const groups = (await as(role).get('/deviceGroup')).body as {
          total_devices: number;
          online_devices: number;
          offline_devices: number;
          devices: unknown[];
          brand_list: unknown[];
          batchIds: number[];
        }[];
        const visible = (await as(role).get('/device')).body as { is_online: boolean }[];
        expect(
          groups.reduce((n, g) => n + g.total_devices, 0),
          role,
        ).toBe(visible.length);
        expect(
          groups.reduce((n, g) => n + g.online_devices, 0),
          role,
        ).toBe(visible.filter((d) => d.is_online).length);
        for (const g of groups) {
          expect(g.online_devices + g.offline_devices).toBe(g.total_devices);
          expect(g.devices).toHaveLength(g.total_devices);
          expect(g.brand_list.length).toBeGreaterThan(0);
        }
      }
    });

    it('location answers counties with GeoJSON (name_2) and a centroid, scoped', async () => {
      const all = (await as('distributor').get('/location')).body as {
        id: number;
        name: string;
        geoJson: string;
        centroid: string;
      }[];
      expect(all.length).toBeGreaterThanOrEqual(8);
      for (const l of all) {
        expect(JSON.parse(l.geoJson).features[0].properties.name_2).toBe(l.name);
        expect(l.centroid).toMatch(/^POINT\(-?\d+\.\d+ -?\d+\.\d+\)$/);
      }
      const partner = (await as('partner').get('/location')).body as { name: string }[];
      expect(partner.map((l) => l.name)).toEqual(['Orleans Parish']);
    });

    it('a site time zone: derived from its coordinates, a disagreeing one refused (400), clients refused (403), partners only on their own sites', async () => {
      const sites = (await as('distributor').get('/deviceGroup')).body as {
        id: number;
        lat: number;
        lng: number;
        timezone_id: string | null;
      }[];
      const site = sites.find((g) => g.lng < -89 && g.lng > -91)!;
      const stored = async (id: number) =>
        ((await as('distributor').get('/deviceGroup')).body as { id: number; timezone_id: string }[]).find((g) => g.id === id)!
          .timezone_id;
      const before = await stored(site.id);
      // The sweep's case: a client setting the zone of a site it shares with another client. Refused, valid zone or not.
      const [clientSite] = (await as('client').get('/deviceGroup')).body;
      for (const timezone_id of ['Australia/Sydney', 'America/Chicago', 'Mars/Olympus']) {
        const res = await as('client').post('/update_timezone_device_location_group', { id: clientSite.id, timezone_id });
        expect(res.status).toBe(403);
      }
      // A zone that is not the coordinates': 400 naming the right one; nothing stored.
      const wrong = await as('distributor').post('/update_timezone_device_location_group', {
        id: site.id,
        timezone_id: 'Australia/Sydney',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({
        timezone_id: ['This site is in America/Chicago (from its coordinates), not Australia/Sydney.'],
      });
      expect(await stored(site.id)).toBe(before);
      expect(
        (await as('distributor').post('/update_timezone_device_location_group', { id: site.id, timezone_id: 'Mars/Olympus' }))
          .body,
      ).toEqual({ timezone_id: ['Unknown time zone.'] });
      // The coordinates' zone (or an alias of it) is confirmed and stored under its boundary-data name.
      const right = await as('distributor').post('/update_timezone_device_location_group', {
        id: site.id,
        timezone_id: 'US/Central',
      });
      expect(right.status).toBe(200);
      expect(right.body).toEqual({ id: site.id, timezone_id: 'America/Chicago' });
      expect(await stored(site.id)).toBe('America/Chicago');
      // A market partner: its own sites as a distributor would, 404 for another's.
      const partnerSites = (await as('partner').get('/deviceGroup')).body as { id: number }[];
      const own = sites.find((g) => g.id === partnerSites[0]!.id)!;
      expect(
        (await as('partner').post('/update_timezone_device_location_group', { id: own.id, timezone_id: 'America/Chicago' }))
          .status,
      ).toBe(200);
      expect(
        (await as('partner').post('/update_timezone_device_location_group', { id: own.id, timezone_id: 'America/New_York' }))
          .status,
      ).toBe(400);
      const outside = sites.find((g) => !partnerSites.some((p) => p.id === g.id))!;
      expect(
        (await as('partner').post('/update_timezone_device_location_group', { id: outside.id, timezone_id: 'America/Chicago' }))
          .status,
      ).toBe(404);
    });

    it('overview counts every section 3 figure in scope', async () => {
      const res = await as('distributor').get('/overview');
      expect(res.status).toBe(200);
      const d = await h.database.db.select().from(devices).where(isNotNull(devices.groupId));
      const o = res.body;
      expect(o.total_devices).toBe(d.length);
      expect(o.online_devices).toBe(d.filter((x) => x.isOnline).length);
      expect(o.offline_devices).toBe(d.filter((x) => !x.isOnline).length);
      expect(o.warning_devices).toBe(d.filter((x) => x.isWarning).length);
      expect(o.pause_devices).toBe(d.filter((x) => x.isPause).length);
      expect(o.maintenance_devices).toBe(d.filter((x) => x.isMaintenance).length);
      expect(o.low_battery_devices).toBe(d.filter((x) => (x.batteryPercent ?? 100) < 50).length);
      expect(o.totalIsRegistration).toBe(d.filter((x) => x.isRegistration).length);
      const ml = d.reduce(
        (n, x) =>
          n + (x.leftPumpType === 'Sunscreen' ? x.dispensedMl1 : 0) + (x.rightPumpType === 'Sunscreen' ? x.dispensedMl2 : 0),
        0,
      );
      expect(o.totalSunscreenUsed).toBeCloseTo(ml / 1000 / 0.0295735, 1);
      expect(o.totalSunscreenUsed).toBeGreaterThan(0);
      expect(o.totalSunscreenDispensingCount).toBe(
        d.reduce(
          (n, x) =>
            n +
            (x.leftPumpType === 'Sunscreen' ? x.dispenseCount1 : 0) +
            (x.rightPumpType === 'Sunscreen' ? x.dispenseCount2 : 0),
          0,
        ),
      );
      expect(o.totalSunscreenBatchs).toBe(6);
      expect(o.totalSanitizerBatchs).toBe(4);
      expect(o.total_brands).toBe(5);
      expect(o.total_market_partners).toBe(2);
    });

    it('overview is scoped to the client and to a county', async () => {
      const mine = (await as('client').get('/device')).body.length;
      expect((await as('client').get('/overview')).body.total_devices).toBe(mine);
      const orleans = (await as('distributor').get('/location')).body.find((l: { name: string }) => l.name === 'Orleans Parish');
      const byCounty = await as('distributor').get(`/overview?location=${orleans.id}`);
      expect(byCounty.body).toMatchObject({ location: orleans.id, total_devices: orleans.total_devices });
      expect((await as('distributor').get('/overview?location=abc')).status).toBe(400);
    });
  });

  it('keeps every stored list answer equal to a fresh one after all the writes above', async () => {
    const stale = (await h.database.db.execute(
      sql`select serial from devices left join device_list_answers a on a.device_id = devices.id where a.list_json is distinct from device_list_json(devices)`,
    )) as unknown as { rows: { serial: string }[] };
    expect(stale.rows).toEqual([]);
  });

  describe('OpenAPI', () => {
    it('documents every device call at /api/openapi.json and renders /api/docs', async () => {
      const doc = (await request(h.app).get('/api/openapi.json')).body;
      expect(doc.openapi).toBe('3.1.0');
      for (const path of [
        '/api/v1/device',
        '/api/v1/device/{serial}',
        '/api/v1/avaliableDevice',
        '/api/v1/addDevice',
        '/api/v1/editDevice/{serial}',
        '/api/v1/set_device_config/{serial}',
        '/api/v1/rentalV2',
        '/api/v1/deviceGroup',
        '/api/v1/location',
        '/api/v1/overview',
        '/auth/token/login/',
      ]) {
        expect(doc.paths[path], path).toBeDefined();
      }
      expect(
        doc.paths['/api/v1/addDevice'].post.requestBody.content['application/json'].schema.properties.serialNumber,
      ).toBeDefined();
      const page = await request(h.app).get('/api/docs');
      expect(page.status).toBe(200);
      expect(page.text).toContain('/api/openapi.json');
    });
  });
});
