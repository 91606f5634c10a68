import { eq, isNotNull } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toZonedIso } from '@fleet/shared';
import {
  batteryReadings,
  dataUsage,
  deviceGroups,
  devices,
  levelReadings,
  pumpEvents,
  smsLog,
} from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
type Role = 'distributor' | 'client' | 'partner' | 'client2';
type PumpLog = {
  total_left_pump_dispensation: number;
  total_right_pump_dispensation: number;
  dispensingDatas: { date: string; value: number }[];
  remainDatas: { date: string; value: number | null }[];
};

/**
 * The telemetry reads of spec section 7 on hand-made history: every telemetry table is emptied, then known
 * rows are written around the 2026-03-08 spring-forward day in America/Chicago (the demo sites are in
 * Louisiana), and the answers are compared with counts worked out by hand.
 *
 * Demo devices used (serials follow the seed's site order):
 * - SP240001, SP240002: Audubon Park (Orleans, SunStop: client, partner for numbers 1-4)
 * - SP240009: Jazz & Heritage Festival (Orleans, Gulf Shield: client, partner)
 * - SP240016: City Park (Orleans, SunStop: client)
 * - SP240022: Lafreniere Park (Jefferson, Gulf Shield: client)
 * - SP240029: Lafitte Town Park (Jefferson, Bayou Clean: client2 only, not client)
 */
describe.each(BACKENDS)('telemetry calls on %s', (backend) => {
  let h: Harness;
  const key: Record<Role, string> = { distributor: '', client: '', partner: '', client2: '' };
  const ids = new Map<string, number>();
  const CHI = 'America/Chicago';

  const as = (role: Role) => ({
    get: (path: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`),
    post: (path: string, body?: object | string) => {
      const r = request(h.app).post(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`);
      return typeof body === 'string' ? r.set('Content-Type', 'application/json').send(body) : r.send(body);
    },
  });
  const id = (serial: string) => ids.get(serial)!;
  const dispense = (serial: string, pump: number, ...at: string[]) =>
    h.database.db
      .insert(pumpEvents)
      .values(at.map((t) => ({ deviceId: id(serial), pumpNumber: pump, occurredAt: new Date(t), volumeMl: 1 })));
  const log = async (role: Role, body: Record<string, unknown>) => {
    const res = await as(role).post('/getPumpLog', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as PumpLog;
  };
  const body = (serial: string, over: Record<string, unknown> = {}) => ({
    filterDateType: 'DAILY',
    pumpNumber: 1,
    todayDate: '2026-03-08',
    startDate: '',
    endDate: '',
    filterDeviceType: 'SINGLE',
    serial,
    ...over,
  });
  /** Counts of the non-zero buckets, keyed by bucket index. */
  const nonZero = (series: { value: number }[]) => Object.fromEntries(series.flatMap((p, i) => (p.value ? [[i, p.value]] : [])));

  beforeAll(async () => {
    h = await startHarness(backend);
    for (const role of Object.keys(key) as Role[]) {
      key[role] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${role}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
    for (const d of await h.database.db.select({ id: devices.id, serial: devices.serial }).from(devices)) ids.set(d.serial, d.id);
    await h.database.exec(
      'delete from pump_events; delete from level_readings; delete from battery_readings; delete from data_usage; delete from sms_log;',
    );
    await h.database.db.update(deviceGroups).set({ timezoneId: CHI });
    await h.database.db.update(devices).set({ rightPumpType: 'Sanitizer' }).where(eq(devices.serial, 'SP240001'));
    await h.database.db.update(devices).set({ rightPumpType: 'Unspecified' }).where(eq(devices.serial, 'SP240002'));

    // SP240001, pump 1. Local time (America/Chicago) in the comments; 2026-03-08 02:00 CST jumps to 03:00 CDT.
    await dispense(
      'SP240001',
      1,
      '2025-09-01T04:59:00Z', // Aug 31 23:59 CDT: before the monthly range
      '2025-09-01T05:00:00Z', // Sep 1 00:00 CDT
      '2025-11-02T06:30:00Z', // Nov 2 01:30 CDT (fall-back day, first 01:30)
      '2025-11-02T07:30:00Z', // Nov 2 01:30 CST (second 01:30)
      '2025-12-01T05:59:00Z', // Nov 30 23:59 CST
      '2026-01-15T18:00:00Z', // Jan 15
      '2026-03-04T05:59:00Z', // Mar 3 23:59 CST: before the week
      '2026-03-07T18:00:00Z', // Mar 7 12:00 CST
      '2026-03-08T05:59:59Z', // Mar 7 23:59:59 CST
      '2026-03-08T06:00:00Z', // Mar 8 00:00 CST  -> hour 0
      '2026-03-08T07:30:00Z', // 01:30 CST        -> hour 1
      '2026-03-08T07:59:59Z', // 01:59:59 CST     -> hour 1
      '2026-03-08T08:00:00Z', // 03:00 CDT        -> hour 2 (02:00 does not exist)
      '2026-03-08T08:15:00Z', // 03:15 CDT        -> hour 2
      '2026-03-08T17:00:00Z', // 12:00 CDT        -> hour 11
      '2026-03-09T04:59:00Z', // 23:59 CDT        -> hour 22, the last
      '2026-03-09T05:00:00Z', // Mar 9 00:00 CDT
      '2026-03-10T12:00:00Z', // Mar 10
      '2026-03-11T05:00:00Z', // Mar 11 00:00 CDT: after the week
      '2026-04-01T04:59:00Z', // Mar 31 23:59 CDT
      '2026-04-01T05:00:00Z', // Apr 1 00:00 CDT: after the monthly range
    );
    await dispense(
      'SP240001',
      2,
      '2026-03-07T18:30:00Z',
      '2026-03-08T10:00:00Z' /* 05:00 CDT, hour 4 */,
      '2026-03-08T20:00:00Z' /* 15:00 CDT, hour 14 */,
    );
    await dispense('SP240002', 1, '2026-03-08T12:00:00Z', '2026-03-08T12:10:00Z'); // 07:00 CDT, hour 6
    await dispense('SP240009', 1, '2026-03-08T06:10:00Z'); // hour 0
    await dispense('SP240009', 2, '2026-03-08T09:00:00Z'); // hour 3
    await dispense('SP240016', 1, '2026-03-09T03:00:00Z'); // 22:00 CDT, hour 21
    await dispense('SP240022', 1, '2026-03-08T14:00:00Z', '2026-03-08T14:01:00Z', '2026-03-08T14:02:00Z'); // 09:00 CDT, hour 8
    await dispense('SP240029', 1, '2026-03-08T06:30:00Z', '2026-03-08T15:00:00Z'); // hour 0 and hour 9 (10:00 CDT)
    await h.database.db.insert(levelReadings).values([
      {
        deviceId: id('SP240001'),
        pumpNumber: 1,
        recordedAt: new Date('2026-03-08T07:00:00Z'),
        levelSensor: true,
        volumeRemain: 1000,
      },
      {
        deviceId: id('SP240001'),
        pumpNumber: 1,
        recordedAt: new Date('2026-03-08T15:00:00Z'),
        levelSensor: true,
        volumeRemain: 900.5,
      },
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('POST /getPumpLog', () => {
    it('DAILY on the spring-forward day: 23 site-local hours, each dispense in its local hour', async () => {
      const res = await log('distributor', body('SP240001'));
      expect(res.dispensingDatas).toHaveLength(23);
      expect(res.dispensingDatas[0]!.date).toBe('2026-03-08T00:00:00-06:00');
      expect(res.dispensingDatas[1]!.date).toBe('2026-03-08T01:00:00-06:00');
      expect(res.dispensingDatas[2]!.date).toBe('2026-03-08T03:00:00-05:00');
      expect(res.dispensingDatas[22]!.date).toBe('2026-03-08T23:00:00-05:00');
      expect(nonZero(res.dispensingDatas)).toEqual({ 0: 1, 1: 2, 2: 2, 11: 1, 22: 1 });
      expect(res.total_left_pump_dispensation).toBe(7);
      expect(res.total_right_pump_dispensation).toBe(2);
      // remaining volume at each bucket end: 1000 from the 07:00Z reading, 900.5 from the bucket ending 15:00Z on
      expect(res.remainDatas.map((p) => p.value)).toEqual([...Array(8).fill(1000), ...Array(15).fill(900.5)]);
      expect(res.remainDatas.map((p) => p.date)).toEqual(res.dispensingDatas.map((p) => p.date));

      const right = await log('distributor', body('SP240001', { pumpNumber: 2 }));
      expect(nonZero(right.dispensingDatas)).toEqual({ 4: 1, 14: 1 });
      expect(right.remainDatas.every((p) => p.value === null)).toBe(true);
      expect([right.total_left_pump_dispensation, right.total_right_pump_dispensation]).toEqual([7, 2]);
    });

    it('takes the date of an ISO date-time in the site zone, and has no remaining volume before any reading', async () => {
      const res = await log('distributor', body('SP240001', { todayDate: '2026-03-09T03:00:00Z' }));
      expect(res.dispensingDatas).toHaveLength(23);
      expect(res.total_left_pump_dispensation).toBe(7);
      const before = await log('distributor', body('SP240001', { todayDate: '2025-01-01' }));
      expect(before.dispensingDatas).toHaveLength(24);
      expect(before.remainDatas.every((p) => p.value === null)).toBe(true);
    });

    it('WEEKLY: 7 site-local days ending at endDate, across the change', async () => {
      const res = await log('distributor', body('SP240001', { filterDateType: 'WEEKLY', todayDate: '', endDate: '2026-03-10' }));
      expect(res.dispensingDatas).toEqual([
        { date: '2026-03-04T00:00:00-06:00', value: 0 },
        { date: '2026-03-05T00:00:00-06:00', value: 0 },
        { date: '2026-03-06T00:00:00-06:00', value: 0 },
        { date: '2026-03-07T00:00:00-06:00', value: 2 },
        { date: '2026-03-08T00:00:00-06:00', value: 7 },
        { date: '2026-03-09T00:00:00-05:00', value: 1 },
        { date: '2026-03-10T00:00:00-05:00', value: 1 },
      ]);
      expect([res.total_left_pump_dispensation, res.total_right_pump_dispensation]).toEqual([11, 3]);
      // remaining volume at each day's end: none before Mar 8
      expect(res.remainDatas.map((p) => p.value)).toEqual([null, null, null, null, 900.5, 900.5, 900.5]);
    });

    it('MONTHLY: by default the end month and the 6 before it, whole site-local months', async () => {
      const res = await log('distributor', body('SP240001', { filterDateType: 'MONTHLY', todayDate: '', endDate: '2026-03-10' }));
      expect(res.dispensingDatas).toEqual([
        { date: '2025-09-01T00:00:00-05:00', value: 1 },
        { date: '2025-10-01T00:00:00-05:00', value: 0 },
        { date: '2025-11-01T00:00:00-05:00', value: 3 },
        { date: '2025-12-01T00:00:00-06:00', value: 0 },
        { date: '2026-01-01T00:00:00-06:00', value: 1 },
        { date: '2026-02-01T00:00:00-06:00', value: 0 },
        { date: '2026-03-01T00:00:00-06:00', value: 14 },
      ]);
      expect([res.total_left_pump_dispensation, res.total_right_pump_dispensation]).toEqual([19, 3]);
      const from = await log(
        'distributor',
        body('SP240001', { filterDateType: 'MONTHLY', todayDate: '', startDate: '2026-01-20', endDate: '2026-03-10' }),
      );
      expect(from.dispensingDatas.map((p) => p.value)).toEqual([1, 0, 14]);
      expect(from.total_left_pump_dispensation).toBe(15);
    });

    it('pump 2 of a device without a right pump answers empty series', async () => {
      const res = await log('distributor', body('SP240002', { pumpNumber: 2 }));
      expect(res).toEqual({
        total_left_pump_dispensation: 2,
        total_right_pump_dispensation: 0,
        dispensingDatas: [],
        remainDatas: [],
      });
    });

    const serialsWhere = async (where: 'group' | 'location' | 'all', of: string) => {
      const [d] = await h.database.db
        .select({ groupId: devices.groupId, locationId: deviceGroups.locationId })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(eq(devices.serial, of));
      const rows = await h.database.db
        .select({ serial: devices.serial })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(
          where === 'group'
            ? eq(devices.groupId, d!.groupId!)
            : where === 'location'
              ? eq(deviceGroups.locationId, d!.locationId!)
              : isNotNull(devices.groupId),
        );
      return rows.map((r) => r.serial);
    };
    /** SINGLE for each serial the role can see, summed bucket by bucket. */
    const sumOfSingles = async (role: Role, serials: string[]) => {
      const sum = { left: 0, right: 0, values: Array(23).fill(0) as number[] };
      for (const serial of serials) {
        const res = await as(role).post('/getPumpLog', body(serial));
        if (res.status === 404) continue;
        expect(res.status).toBe(200);
        sum.left += res.body.total_left_pump_dispensation;
        sum.right += res.body.total_right_pump_dispensation;
        res.body.dispensingDatas.forEach((p: { value: number }, i: number) => (sum.values[i]! += p.value));
      }
      return sum;
    };
    const summary = (r: PumpLog) => ({
      left: r.total_left_pump_dispensation,
      right: r.total_right_pump_dispensation,
      values: r.dispensingDatas.map((p) => p.value),
    });

    it('ADDRESS, DISTRICT and ALL are the sums of SINGLE over their devices', async () => {
      const address = await log('distributor', body('SP240001', { filterDeviceType: 'ADDRESS' }));
      expect(nonZero(address.dispensingDatas)).toEqual({ 0: 1, 1: 2, 2: 2, 6: 2, 11: 1, 22: 1 });
      expect([address.total_left_pump_dispensation, address.total_right_pump_dispensation]).toEqual([9, 2]);
      expect(summary(address)).toEqual(await sumOfSingles('distributor', await serialsWhere('group', 'SP240001')));
      expect(address.remainDatas).toEqual(address.dispensingDatas.map((p) => ({ date: p.date, value: null })));

      const district = await log('distributor', body('SP240001', { filterDeviceType: 'DISTRICT' }));
      expect(nonZero(district.dispensingDatas)).toEqual({ 0: 2, 1: 2, 2: 2, 6: 2, 11: 1, 21: 1, 22: 1 });
      expect([district.total_left_pump_dispensation, district.total_right_pump_dispensation]).toEqual([11, 3]);
      expect(summary(district)).toEqual(await sumOfSingles('distributor', await serialsWhere('location', 'SP240001')));

      const all = await log('distributor', body('SP240001', { filterDeviceType: 'ALL' }));
      expect(nonZero(all.dispensingDatas)).toEqual({ 0: 3, 1: 2, 2: 2, 6: 2, 8: 3, 9: 1, 11: 1, 21: 1, 22: 1 });
      expect([all.total_left_pump_dispensation, all.total_right_pump_dispensation]).toEqual([16, 3]);
      expect(summary(all)).toEqual(await sumOfSingles('distributor', await serialsWhere('all', 'SP240001')));
    });

    it("a client's ALL and DISTRICT cover only its own devices", async () => {
      const all = await log('client', body('SP240001', { filterDeviceType: 'ALL' }));
      expect(nonZero(all.dispensingDatas)).toEqual({ 0: 2, 1: 2, 2: 2, 6: 2, 8: 3, 11: 1, 21: 1, 22: 1 });
      expect([all.total_left_pump_dispensation, all.total_right_pump_dispensation]).toEqual([14, 3]);
      expect(summary(all)).toEqual(await sumOfSingles('client', await serialsWhere('all', 'SP240001')));

      // Jefferson: Lafreniere is the client's, Lafitte (SP240029) is not
      const clientDistrict = await log('client', body('SP240022', { filterDeviceType: 'DISTRICT' }));
      const distDistrict = await log('distributor', body('SP240022', { filterDeviceType: 'DISTRICT' }));
      expect(clientDistrict.total_left_pump_dispensation).toBe(3);
      expect(distDistrict.total_left_pump_dispensation).toBe(5);
      expect(summary(clientDistrict)).toEqual(await sumOfSingles('client', await serialsWhere('location', 'SP240022')));

      const partnerAll = await log('partner', body('SP240001', { filterDeviceType: 'ALL' }));
      expect([partnerAll.total_left_pump_dispensation, partnerAll.total_right_pump_dispensation]).toEqual([10, 3]); // Audubon 1-4 and Jazz
    });

    it('cuts a site without a time zone in UTC (24 hours)', async () => {
      const [lafitte] = await h.database.db
        .select({ groupId: devices.groupId })
        .from(devices)
        .where(eq(devices.serial, 'SP240029'));
      await h.database.db.update(deviceGroups).set({ timezoneId: null }).where(eq(deviceGroups.id, lafitte!.groupId!));
      try {
        const res = await log('distributor', body('SP240029'));
        expect(res.dispensingDatas).toHaveLength(24);
        expect(res.dispensingDatas[6]!.date).toBe('2026-03-08T06:00:00+00:00');
        expect(nonZero(res.dispensingDatas)).toEqual({ 6: 1, 15: 1 });
      } finally {
        await h.database.db.update(deviceGroups).set({ timezoneId: CHI }).where(eq(deviceGroups.id, lafitte!.groupId!));
      }
    });

    it('404 outside the scope or off a site, 401 without a token', async () => {
      expect((await as('client').post('/getPumpLog', body('SP240029'))).status).toBe(404);
      expect((await as('client').post('/getPumpLog', body('SP240029', { filterDeviceType: 'ALL' }))).status).toBe(404);
      expect((await as('partner').post('/getPumpLog', body('SP240016'))).status).toBe(404);
      expect((await as('distributor').post('/getPumpLog', body('NOPE'))).status).toBe(404);
      expect((await as('distributor').post('/getPumpLog', body('SP260001'))).status).toBe(404); // provisioned, not placed
      expect((await request(h.app).post('/api/v1/getPumpLog').send(body('SP240001'))).status).toBe(401);
    });

    it('400 with a message per field, never 500', async () => {
      const res = await as('distributor').post('/getPumpLog', {
        filterDateType: 'YEARLY',
        pumpNumber: 3,
        todayDate: '2026-02-30',
        endDate: 'x'.repeat(10_000),
        filterDeviceType: 'ANY',
        serial: '',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        filterDateType: ['Choose one of DAILY, WEEKLY, MONTHLY.'],
        pumpNumber: ['Choose pump 1 (left) or 2 (right).'],
        todayDate: ['Enter a valid date as YYYY-MM-DD (or an ISO 8601 date-time), years 1970 to 2100.'],
        endDate: ['Ensure this field has no more than 40 characters.'],
        filterDeviceType: ['Choose one of SINGLE, ADDRESS, DISTRICT, ALL.'],
        serial: ['This field may not be blank.'],
      });
      const malformed = await as('distributor').post('/getPumpLog', '{"filterDateType": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ detail: 'Malformed JSON in request body.' });
      const array = await as('distributor').post('/getPumpLog', '[1, 2]');
      expect(array.status).toBe(400);
      expect(array.body).toEqual({ non_field_errors: ['Send a JSON object.'] });
      const reversed = await as('distributor').post(
        '/getPumpLog',
        body('SP240001', { filterDateType: 'MONTHLY', startDate: '2026-04-01', endDate: '2026-03-01' }),
      );
      expect(reversed.status).toBe(400);
      expect(reversed.body).toEqual({ startDate: ['The start date must be on or before the end date.'] });
      const huge = await as('distributor').post(
        '/getPumpLog',
        body('SP240001', { filterDateType: 'MONTHLY', startDate: '1970-01-01', endDate: '2100-12-31' }),
      );
      expect(huge.status).toBe(400);
      expect(Object.keys(huge.body)).toEqual(['startDate']);
    });
  });

  describe('POST /batteryLog', () => {
    const battery = (serial: string, over: Record<string, unknown> = {}) => ({
      filterDateType: 'YEARLY',
      pumpNumber: 1,
      filterDeviceType: 'SINGLE',
      serial,
      ...over,
    });

    it('answers the readings of the site-local range, oldest first', async () => {
      const at = (t: string, percent: number) => ({
        deviceId: id('SP240001'),
        recordedAt: new Date(t),
        batteryVolt: 3.93,
        batteryPercent: percent,
      });
      // written out of order on purpose
      await h.database.db
        .insert(batteryReadings)
        .values([
          at('2026-03-09T12:00:00Z', 70),
          at('2026-03-07T12:00:00Z', 99),
          at('2026-03-08T20:00:00Z', 75.5),
          at('2026-03-10T05:00:00Z', 60),
          at('2026-03-08T06:00:00Z', 80),
          at('2026-03-10T04:59:00Z', 65),
        ]);
      const res = await as('client').post('/batteryLog', battery('SP240001', { startDate: '2026-03-08', endDate: '2026-03-09' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { battery_percent: 80, battery_volt: 3.93, update_on: '2026-03-08T00:00:00-06:00' },
        { battery_percent: 75.5, battery_volt: 3.93, update_on: '2026-03-08T15:00:00-05:00' },
        { battery_percent: 70, battery_volt: 3.93, update_on: '2026-03-09T07:00:00-05:00' },
        { battery_percent: 65, battery_volt: 3.93, update_on: '2026-03-09T23:59:00-05:00' },
      ]);
    });

    it('averages per site-local day beyond 2,000 readings', async () => {
      // 2,100 hourly readings from 2026-01-01 00:00 CST; percent = hour number mod 24
      await h.database.exec(`
        insert into battery_readings (device_id, recorded_at, battery_volt, battery_percent)
        select ${id('SP240002')}, timestamptz '2026-01-01T06:00:00Z' + k * interval '1 hour', 3.5, k % 24
        from generate_series(0, 2099) as k`);
      const res = await as('distributor').post(
        '/batteryLog',
        battery('SP240002', { startDate: '2026-01-01', endDate: '2026-03-31' }),
      );
      expect(res.status).toBe(200);
      // Jan 1 .. Mar 29 (the last reading is Mar 29 12:00 CDT)
      expect(res.body).toHaveLength(31 + 28 + 29);
      expect(res.body[0]).toEqual({ battery_percent: 11.5, battery_volt: 3.5, update_on: '2026-01-01T00:00:00-06:00' });
      const byDay = new Map(res.body.map((p: { update_on: string }) => [p.update_on.slice(0, 10), p]));
      // the 23-hour day holds hours 0..22 of the series; the next day starts at 23
      expect(byDay.get('2026-03-08')).toEqual({ battery_percent: 11, battery_volt: 3.5, update_on: '2026-03-08T00:00:00-06:00' });
      expect(byDay.get('2026-03-09')).toEqual({
        battery_percent: 11.5,
        battery_volt: 3.5,
        update_on: '2026-03-09T00:00:00-05:00',
      });
      const times = res.body.map((p: { update_on: string }) => Date.parse(p.update_on));
      expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
    });

    it('defaults to the last year', async () => {
      const now = Date.now();
      await h.database.db.insert(batteryReadings).values([
        { deviceId: id('SP240009'), recordedAt: new Date(now - 400 * 86_400_000), batteryVolt: 4, batteryPercent: 90 },
        { deviceId: id('SP240009'), recordedAt: new Date(now - 10 * 86_400_000), batteryVolt: 3.8, batteryPercent: 55 },
      ]);
      const res = await as('partner').post('/batteryLog', battery('SP240009'));
      expect(res.status).toBe(200);
      expect(res.body.map((p: { battery_percent: number }) => p.battery_percent)).toEqual([55]);
    });

    it('checks its input and its scope', async () => {
      const bad = await as('distributor').post(
        '/batteryLog',
        battery('SP240001', { filterDateType: 'DAILY', filterDeviceType: 'ALL', startDate: '2026-13-01' }),
      );
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['filterDateType', 'filterDeviceType', 'startDate']);
      const reversed = await as('distributor').post(
        '/batteryLog',
        battery('SP240001', { startDate: '2026-03-09', endDate: '2026-03-08' }),
      );
      expect(reversed.body).toEqual({ startDate: ['The start date must be on or before the end date.'] });
      expect((await as('client').post('/batteryLog', battery('SP240029'))).status).toBe(404);
      expect((await request(h.app).post('/api/v1/batteryLog').send(battery('SP240001'))).status).toBe(401);
    });
  });

  describe('data usage', () => {
    beforeAll(async () => {
      const row = (t: string, kb: number) => ({ deviceId: id('SP240001'), recordedAt: new Date(t), kb, signalQuality: 50 });
      const daily = ['01', '02', '03', '04', '05', '06', '07', '10'].map((d) => row(`2026-03-${d}T18:00:00Z`, 1024));
      await h.database.db.insert(dataUsage).values([
        ...daily,
        row('2026-03-01T05:59:00Z', 4096), // Feb 28 23:59 CST: February
        row('2026-03-08T06:30:00Z', 1024), // 00:30 CST  -> hour 0
        row('2026-03-08T08:30:00Z', 2048), // 03:30 CDT  -> hour 2
        row('2026-03-08T17:00:00Z', 1998), // 12:00 CDT  -> hour 11
        row('2026-03-09T01:00:00Z', 0), //    20:00 CDT  -> hour 19
        row('2026-03-09T02:00:00Z', 50), //   21:00 CDT  -> hour 20
        row('2026-03-09T18:00:00Z', 256),
      ]);
    });

    it('monthDataUsage: every day of the month, MB per site-local day and its status', async () => {
      const res = await as('client').get('/monthDataUsage/SP240001/2026-03');
      expect(res.status).toBe(200);
      const days = Object.keys(res.body);
      expect(days).toHaveLength(31);
      expect(days[0]).toBe('2026-03-01');
      expect(days[30]).toBe('2026-03-31');
      // the median day of Mar 2-31 (days with readings) is 1 MB
      expect(res.body['2026-03-01']).toEqual({ status: 'NORMAL', usage: 1 });
      expect(res.body['2026-03-07']).toEqual({ status: 'NORMAL', usage: 1 });
      expect(res.body['2026-03-08']).toEqual({ status: 'HIGH USAGE', usage: 5 });
      expect(res.body['2026-03-09']).toEqual({ status: 'LOW USAGE', usage: 0.25 });
      expect(res.body['2026-03-10']).toEqual({ status: 'NORMAL', usage: 1 });
      expect(res.body['2026-03-11']).toEqual({ status: 'NO DATA', usage: 0 });
      expect((await as('client').get('/monthDataUsage/SP240001/2026-03-15')).body).toEqual(res.body);
      const feb = await as('client').get('/monthDataUsage/SP240001/2026-02');
      expect(Object.keys(feb.body)).toHaveLength(28);
      expect(feb.body['2026-02-28'].usage).toBe(4);
    });

    it('dataUsage: each site-local hour of the day, 23 on the spring-forward day', async () => {
      const res = await as('distributor').get('/dataUsage/SP240001/2026-03-08');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(23);
      expect(res.body.map((x: { name: string }) => x.name).slice(0, 4)).toEqual(['00:00', '01:00', '03:00', '04:00']);
      const total = res.body.reduce((s: number, x: { value: number }) => s + x.value, 0);
      expect(Math.round(total * 100) / 100).toBe(5);
      // hourly baseline: the median day (1 MB) / 24
      expect(res.body[0]).toEqual({ name: '00:00', value: 1, status: 'HIGH USAGE', start: '2026-03-08T00:00:00-06:00' });
      expect(res.body[2]).toMatchObject({ name: '03:00', value: 2, status: 'HIGH USAGE' });
      expect(res.body[11]).toMatchObject({ name: '12:00', value: 1.95, status: 'HIGH USAGE' });
      expect(res.body[19]).toMatchObject({ name: '20:00', value: 0, status: 'LOW USAGE' });
      expect(res.body[20]).toMatchObject({ name: '21:00', value: 0.05, status: 'NORMAL' });
      expect(res.body[1]).toMatchObject({ name: '01:00', value: 0, status: 'NO DATA' });
      const fallBack = await as('distributor').get('/dataUsage/SP240001/2026-11-01');
      expect(fallBack.body).toHaveLength(25);
      expect(fallBack.body.filter((x: { name: string }) => x.name === '01:00')).toHaveLength(2);
      expect((await as('distributor').get('/dataUsage/SP240001/2026-03-10')).body).toHaveLength(24);
    });

    it('checks dates and scope', async () => {
      const bad = await as('distributor').get('/monthDataUsage/SP240001/2026-13');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ date: ['Enter a month as YYYY-MM (or a date YYYY-MM-DD), years 1970 to 2100.'] });
      expect((await as('distributor').get('/dataUsage/SP240001/yesterday')).status).toBe(400);
      expect((await as('distributor').get(`/dataUsage/SP240001/${'9'.repeat(5000)}`)).body).toEqual({
        date: ['Ensure this field has no more than 40 characters.'],
      });
      expect((await as('client').get('/dataUsage/SP240029/2026-03-08')).status).toBe(404);
      expect((await as('client').get('/monthDataUsage/SP240029/2026-03')).status).toBe(404);
      expect((await request(h.app).get('/api/v1/dataUsage/SP240001/2026-03-08')).status).toBe(401);
    });
  });

  describe('SIM', () => {
    it('simLog: newest first, at most 200, ?limit=', async () => {
      await h.database.exec(`
        insert into sms_log (device_id, direction, message, created_when)
        select ${id('SP240001')}, case when k % 2 = 0 then 'OUT' else 'IN' end, 'M' || k, timestamptz '2026-03-08T07:00:00Z' + k * interval '1 minute'
        from generate_series(0, 204) as k`);
      const res = await as('client').get('/simLog/SP240001');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(200);
      expect(res.body[0]).toEqual({ direction: 'OUT', message: 'M204', created_when: '2026-03-08T05:24:00-05:00' });
      expect(res.body[199].message).toBe('M5');
      const five = await as('client').get('/simLog/SP240001?limit=5');
      expect(five.body.map((r: { message: string }) => r.message)).toEqual(['M204', 'M203', 'M202', 'M201', 'M200']);
      for (const limit of ['0', '201', 'abc', '1.5']) {
        const bad = await as('client').get(`/simLog/SP240001?limit=${limit}`);
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ limit: ['Enter a whole number from 1 to 200.'] });
      }
      expect((await as('client').get('/simLog/SP240029')).status).toBe(404);
      expect((await request(h.app).get('/api/v1/simLog/SP240001')).status).toBe(401);
    });

    it('sms_status: SIM identity, signal band and 30-day counts', async () => {
      const now = Date.now();
      const ago = (days: number) => new Date(now - days * 86_400_000);
      const d = id('SP240016');
      await h.database.db.insert(smsLog).values([
        { deviceId: d, direction: 'IN', message: 'a', createdWhen: ago(1) },
        { deviceId: d, direction: 'IN', message: 'b', createdWhen: ago(2) },
        { deviceId: d, direction: 'IN', message: 'c', createdWhen: ago(29) },
        { deviceId: d, direction: 'OUT', message: 'd', createdWhen: ago(3) },
        { deviceId: d, direction: 'OUT', message: 'e', createdWhen: ago(5) },
        { deviceId: d, direction: 'IN', message: 'old', createdWhen: ago(31) },
      ]);
      await h.database.db.insert(dataUsage).values([
        { deviceId: d, recordedAt: ago(1), kb: 1024, signalQuality: 45 },
        { deviceId: d, recordedAt: ago(2), kb: 512, signalQuality: 45 },
        { deviceId: d, recordedAt: ago(40), kb: 999, signalQuality: 45 },
      ]);
      await h.database.db.update(devices).set({ signalQuality: 45, warningLists: [] }).where(eq(devices.id, d));
      const [device] = await h.database.db.select().from(devices).where(eq(devices.id, d));
      const res = await as('client').post('/sms_status/SP240016');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        simcardPhoneNumber: device!.simcardPhoneNumber,
        imei: device!.imei,
        simSerialNumber: device!.simSerialNumber,
        signal_quality: 45,
        signal_band: 'fair',
        last_sms_at: toZonedIso(ago(1), CHI),
        sms_in_30d: 3,
        sms_out_30d: 2,
        data_used_30d_mb: 1.5,
      });
      await h.database.db
        .update(devices)
        .set({ warningLists: ['REGISTRATION'] })
        .where(eq(devices.id, d));
      expect((await as('distributor').post('/sms_status/SP240016', {})).body.signal_band).toBe('Unavailable');
      const empty = await as('distributor').post('/sms_status/SP240022');
      expect(empty.body).toMatchObject({ last_sms_at: null, sms_in_30d: 0, sms_out_30d: 0, data_used_30d_mb: 0 });
      expect((await as('partner').post('/sms_status/SP240016')).status).toBe(404);
      expect((await as('distributor').post(`/sms_status/${'x'.repeat(10_000)}`)).status).toBe(400);
    });
  });

  it('documents every call under the Telemetry tag', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    for (const [path, method] of [
      ['/api/v1/getPumpLog', 'post'],
      ['/api/v1/batteryLog', 'post'],
      ['/api/v1/monthDataUsage/{serial}/{date}', 'get'],
      ['/api/v1/dataUsage/{serial}/{date}', 'get'],
      ['/api/v1/simLog/{serial}', 'get'],
      ['/api/v1/sms_status/{serial}', 'post'],
    ]) {
      expect(doc.paths[path!][method!].tags).toEqual(['Telemetry']);
    }
  });
});
