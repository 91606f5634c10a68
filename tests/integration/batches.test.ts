import { and, eq, inArray, or, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batches,
  brandClients,
  brands,
  devices,
  pendingChanges,
  userExclusiveDevices,
  users,
} from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { mailText } from '../helpers/smtp.ts';

const BACKENDS = await backends();

const DIST = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const CLIENT2 = 'client2@demo.test';
const PARTNER = 'partner@demo.test';

type BatchBody = Record<string, unknown> & { id: number; batch_no: string };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const validBatch = (over: Record<string, unknown> = {}) => ({
  batchType: 1,
  batchNumber: 'SPF-T100',
  installDate: day(0),
  expiryDate: day(365),
  batchVolume: 338,
  ...over,
});

/** The batch calls of spec section 7 on a seeded portal, for every role. */
describe.each(BACKENDS)('batches on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DIST, CLIENT, CLIENT2, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.database.db;
  const get = (email: string, path: string) => request(h.app).get(path).set('Authorization', `Token ${keys[email]}`);
  const post = (email: string, path: string, body?: unknown) => {
    const r = request(h.app).post(path).set('Authorization', `Token ${keys[email]}`);
    return body === undefined ? r : r.send(body as object);
  };
  const drain = () => (h.app as unknown as { queue: { drain(): Promise<void> } }).queue.drain();
  const userId = async (email: string) => (await db().select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const batchRow = async (batchNo: string) => (await db().select().from(batches).where(eq(batches.batchNo, batchNo)))[0];
  const batchCount = async () =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(batches)
    )[0]!.n;
  const fedBy = (id: number) =>
    db()
      .select({
        id: devices.id,
        serial: devices.serial,
        brandId: devices.brandId,
        batchId: devices.batchId,
        batch2Id: devices.batch2Id,
        isPause: devices.isPause,
        warningLists: devices.warningLists,
      })
      .from(devices)
      .where(or(eq(devices.batchId, id), eq(devices.batch2Id, id)));
  const listed = async (email: string) => (await get(email, '/api/v1/batch')).body as BatchBody[];
  const byNo = (list: BatchBody[], no: string) => list.find((b) => b.batch_no === no);

  /** Batches feeding at least one device matching `where`, straight from the database. */
  const batchNosFeeding = async (where: ReturnType<typeof sql>) => {
    const res = (await db().execute(sql`
      select distinct b.batch_no from batches b join devices d on d.batch_id = b.id or d.batch2_id = b.id where ${where}`)) as unknown as {
      rows: { batch_no: string }[];
    };
    return res.rows.map((r) => r.batch_no).sort();
  };

  describe('GET /batch', () => {
    it('a distributor sees every batch with the section 3 fields, volumes in litres and fl.oz.', async () => {
      const res = await get(DIST, '/api/v1/batch');
      expect(res.status).toBe(200);
      const all = await db().select({ no: batches.batchNo }).from(batches);
      expect(res.body.map((b: BatchBody) => b.batch_no).sort()).toEqual(all.map((b) => b.no).sort());
      const spf = byNo(res.body, 'SPF-2601')!;
      for (const field of [
        'id',
        'batchType',
        'batch_type',
        'batch_type_name',
        'batchNumber',
        'batch_no',
        'installDate',
        'install_date',
        'expiryDate',
        'expire_date',
        'batchVolume',
        'volume',
        'remain',
        'remain_fl_oz',
        'created_on',
        'in_use',
        'is_using',
        'device_count',
        'status',
        'status_label',
        'is_recalled',
        'brand_lists',
      ]) {
        expect(spf, field).toHaveProperty(field);
      }
      expect(spf).toMatchObject({
        batchType: 1,
        batch_type: 1,
        batch_type_name: 'Sunscreen',
        batchNumber: 'SPF-2601',
        batchVolume: 338,
        status: 'IN_USE',
        status_label: 'In Use',
        in_use: true,
        is_using: true,
        is_recalled: false,
      });
      expect(spf.volume).toBeCloseTo(9.9958, 4);
      expect(spf.remain_fl_oz).toBeCloseTo(338 * 0.55, 2);
      expect(spf.installDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(spf.install_date).toBe(spf.installDate);
      expect(spf.expire_date).toBe(spf.expiryDate);

      const fed = await fedBy(spf.id);
      expect(spf.device_count).toBe(fed.length);
      const brandRows = await db()
        .select({ id: brands.id, name: brands.name })
        .from(brands)
        .where(inArray(brands.id, [...new Set(fed.map((d) => d.brandId!))]));
      expect(spf.brand_lists).toEqual(brandRows.sort((a, b) => a.name.localeCompare(b.name)));

      expect(byNo(res.body, 'SAN-2602')!.batch_type_name).toBe('Sanitizer');
      expect(byNo(res.body, 'SPF-2603')).toMatchObject({
        status: 'NOT_IN_USE',
        status_label: 'Not In Use',
        in_use: false,
        device_count: 0,
        brand_lists: [],
      });
      expect(byNo(res.body, 'SPF-2510')).toMatchObject({ status: 'ALMOST_EXPIRED', status_label: 'Almost Expire' });
      expect(byNo(res.body, 'SPF-2504')).toMatchObject({ status: 'EXPIRED', status_label: 'Expired / Recalled' });
      expect(byNo(res.body, 'SPF-2507')).toMatchObject({ is_recalled: true });
    });

    it('sorts expired batches last, then by batch number', async () => {
      const list = await listed(DIST);
      const nos = list.map((b) => b.batch_no);
      const expired = list.filter((b) => b.status === 'EXPIRED').map((b) => b.batch_no);
      expect(expired.sort()).toEqual(['SAN-2501', 'SPF-2504']);
      expect(nos.slice(-2).sort()).toEqual(['SAN-2501', 'SPF-2504']);
      const live = nos.slice(0, -2);
      expect(live).toEqual([...live].sort());
    });

    it.each([CLIENT, CLIENT2])('%s sees only batches feeding devices of its brands, counted within its scope', async (email) => {
      const uid = await userId(email);
      const brandIds = (
        await db().select({ id: brandClients.brandId }).from(brandClients).where(eq(brandClients.userId, uid))
      ).map((r) => r.id);
      const expected = await batchNosFeeding(
        sql`d.brand_id in (${sql.join(
          brandIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      const list = await listed(email);
      expect(list.map((b) => b.batch_no).sort()).toEqual(expected);
      expect(list.length).toBeLessThan(await batchCount());
      for (const b of list) {
        for (const brand of b.brand_lists as { id: number }[]) expect(brandIds).toContain(brand.id);
        const inScope = (await fedBy(b.id)).filter((d) => brandIds.includes(d.brandId!));
        expect(b.device_count).toBe(inScope.length);
      }
      expect(byNo(list, 'SPF-2603')).toBeUndefined();
    });

    it('a market-partner user sees only batches feeding its exclusive devices', async () => {
      const uid = await userId(PARTNER);
      const expected = await batchNosFeeding(sql`d.id in (select device_id from user_exclusive_devices where user_id = ${uid})`);
      const exclusive = await db()
        .select({ id: userExclusiveDevices.deviceId })
        .from(userExclusiveDevices)
        .where(eq(userExclusiveDevices.userId, uid));
      expect(exclusive.length).toBeGreaterThan(0);
      const list = await listed(PARTNER);
      expect(list.map((b) => b.batch_no).sort()).toEqual(expected);
      expect(list.length).toBeLessThan(await batchCount());
    });

    it('no token: 401', async () => {
      expect((await request(h.app).get('/api/v1/batch')).status).toBe(401);
      expect((await request(h.app).get('/api/v1/batch/1')).status).toBe(401);
    });
  });

  describe('GET /batch/{pumpTypeCode}', () => {
    it('offers batches of that type, never expired or recalled ones', async () => {
      const sun = (await get(DIST, '/api/v1/batch/1')).body as BatchBody[];
      const nos = sun.map((b) => b.batch_no);
      expect(nos).toEqual(expect.arrayContaining(['SPF-2601', 'SPF-2602', 'SPF-2603', 'SPF-2510']));
      expect(nos).not.toContain('SPF-2504');
      expect(nos).not.toContain('SPF-2507');
      for (const b of sun) expect(b).toMatchObject({ batch_type: 1, is_recalled: false });
      for (const b of sun) expect(b.status).not.toBe('EXPIRED');

      const san = ((await get(DIST, '/api/v1/batch/2')).body as BatchBody[]).map((b) => b.batch_no);
      expect(san.sort()).toEqual(['SAN-2509', 'SAN-2601', 'SAN-2602']);
      expect((await get(DIST, '/api/v1/batch/0')).body).toEqual([]);
    });

    it('scopes clients to batches already feeding their devices', async () => {
      const mine = (await listed(CLIENT))
        .filter((b) => b.batch_type === 1 && b.status !== 'EXPIRED' && !b.is_recalled)
        .map((b) => b.batch_no);
      const res = await get(CLIENT, '/api/v1/batch/1');
      expect(res.status).toBe(200);
      expect(res.body.map((b: BatchBody) => b.batch_no).sort()).toEqual(mine.sort());
    });

    it.each(['3', '-1', '01', 'abc', '1.0', 'x10k'])('code %s answers 400 Unknown pump type code.', async (code) => {
      const res = await get(DIST, `/api/v1/batch/${code === 'x10k' ? 'x'.repeat(10_240) : code}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Unknown pump type code.' });
    });
  });

  describe('POST /addBatch', () => {
    it('answers a batch number holding a NUL character with a clear 400, saving nothing', async () => {
      const before = await batchCount();
      const res = await post(DIST, '/api/v1/addBatch', validBatch({ batchNumber: 'SPF\u0000X' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ batchNumber: ['Batch number may not contain control characters.'] });
      expect(await batchCount()).toBe(before);
    });

    it('stores fl.oz. as litres, full, and reads back what was entered', async () => {
      const res = await post(DIST, '/api/v1/addBatch', validBatch({ batchNumber: '  SPF-T100  ' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        batch_no: 'SPF-T100',
        batchVolume: 338,
        remain_fl_oz: 338,
        batch_type: 1,
        status: 'NOT_IN_USE',
        in_use: false,
        device_count: 0,
        brand_lists: [],
        is_recalled: false,
      });
      const row = (await batchRow('SPF-T100'))!;
      expect(row.volumeLitres).toBeCloseTo(9.9958, 4);
      expect(row.remainLitres).toBe(row.volumeLitres);
      expect(row.installDate).toBe(day(0));
      const back = byNo(await listed(DIST), 'SPF-T100')!;
      expect(back).toMatchObject({ id: row.id, batchVolume: 338, remain_fl_oz: 338 });
      expect(back.volume).toBeCloseTo(9.995843, 6);
    });

    it.each(['batchType', 'batchNumber', 'installDate', 'expiryDate', 'batchVolume'])(
      'a missing %s answers {field: ["Required"]}',
      async (field) => {
        const body: Record<string, unknown> = validBatch({ batchNumber: 'SPF-REQ' });
        delete body[field];
        const before = await batchCount();
        const res = await post(DIST, '/api/v1/addBatch', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ [field]: ['Required'] });
        expect(await batchCount()).toBe(before);
      },
    );

    it('blank values and an empty body answer Required for every field', async () => {
      const empty = await post(DIST, '/api/v1/addBatch');
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        batchType: ['Required'],
        batchNumber: ['Required'],
        installDate: ['Required'],
        expiryDate: ['Required'],
        batchVolume: ['Required'],
      });
      const blank = await post(DIST, '/api/v1/addBatch', {
        batchType: null,
        batchNumber: '   ',
        installDate: '',
        expiryDate: '',
        batchVolume: '',
      });
      expect(blank.body).toEqual(empty.body);
    });

    it('refuses a duplicate number, ignoring case and surrounding spaces', async () => {
      const before = await batchCount();
      for (const n of ['SPF-2601', ' spf-2601 ', 'spf-t100']) {
        const res = await post(DIST, '/api/v1/addBatch', validBatch({ batchNumber: n }));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ batchNumber: ['already has batch number'] });
      }
      expect(await batchCount()).toBe(before);
    });

    it('refuses an expiry date on or before the install date', async () => {
      for (const expiryDate of [day(-1), day(0)]) {
        const res = await post(DIST, '/api/v1/addBatch', validBatch({ batchNumber: 'SPF-DATES', expiryDate }));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ expiryDate: ['Expiry date must be after the install date.'] });
      }
      expect(await batchRow('SPF-DATES')).toBeUndefined();
    });

    it.each([
      ['batchType', { batchType: 3 }],
      ['batchType', { batchType: '1' }],
      ['batchType', { batchType: 0 }],
      ['batchNumber', { batchNumber: 42 }],
      ['batchNumber', { batchNumber: 'x'.repeat(10_240) }],
      ['batchNumber', { batchNumber: 'SPF\u0000NUL' }],
      ['installDate', { installDate: '2026-02-30' }],
      ['installDate', { installDate: '0000-01-01' }],
      ['installDate', { installDate: 'x'.repeat(10_240) }],
      ['expiryDate', { expiryDate: '22/11/2027' }],
      ['batchVolume', { batchVolume: 0 }],
      ['batchVolume', { batchVolume: -5 }],
      ['batchVolume', { batchVolume: '338' }],
      ['batchVolume', { batchVolume: 1e12 }],
    ])('a wrong %s (case %#) answers 400 on that field only, with a clear message', async (field, over) => {
      const before = await batchCount();
      const res = await post(DIST, '/api/v1/addBatch', validBatch({ batchNumber: 'SPF-BAD', ...over }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
      expect(res.body[field][0]).toMatch(/\w{4,}/);
      expect(await batchCount()).toBe(before);
    });

    it('malformed JSON and a non-object body answer 400', async () => {
      const bad = await request(h.app)
        .post('/api/v1/addBatch')
        .set('Authorization', `Token ${keys[DIST]}`)
        .set('Content-Type', 'application/json')
        .send('{"batchType": 1,');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ detail: 'Malformed JSON in request body.' });
      const arr = await post(DIST, '/api/v1/addBatch', [validBatch()]);
      expect(arr.status).toBe(400);
      expect(arr.body).toEqual({ non_field_errors: ['Send a JSON object with the batch fields.'] });
    });

    it('only a distributor may add: client and partner 403, no token 401, nothing stored', async () => {
      const before = await batchCount();
      for (const email of [CLIENT, PARTNER]) {
        const res = await post(email, '/api/v1/addBatch', validBatch({ batchNumber: 'SPF-ROLE' }));
        expect(res.status).toBe(403);
      }
      expect(
        (
          await request(h.app)
            .post('/api/v1/addBatch')
            .send(validBatch({ batchNumber: 'SPF-ROLE' }))
        ).status,
      ).toBe(401);
      expect(await batchCount()).toBe(before);
    });
  });

  describe('POST /editBatch/{id}', () => {
    const editBody = (row: typeof batches.$inferSelect, over: Record<string, unknown> = {}) => ({
      batchType: row.batchType,
      batchNumber: row.batchNo,
      installDate: row.installDate,
      expiryDate: row.expireDate,
      batchVolume: Math.round((row.volumeLitres / 0.0295735) * 100) / 100,
      ...over,
    });

    it('changes number, dates and volume; remain moves by the same amount, within 0..volume', async () => {
      const row = (await batchRow('SPF-2602'))!;
      const dispensed = row.volumeLitres - row.remainLitres;
      const res = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchNumber: 'SPF-2602B', batchVolume: 400 }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: row.id, batch_no: 'SPF-2602B', batchVolume: 400, status: 'IN_USE' });
      const after = (await batchRow('SPF-2602B'))!;
      expect(after.volumeLitres).toBeCloseTo(400 * 0.0295735, 9);
      expect(after.volumeLitres - after.remainLitres).toBeCloseTo(dispensed, 9);
      expect(byNo(await listed(DIST), 'SPF-2602B')).toMatchObject({ batchVolume: 400 });

      const shrunk = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(after, { batchVolume: 10 }));
      expect(shrunk.status).toBe(200);
      expect(shrunk.body.remain).toBe(0);

      const back = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchVolume: 338 }));
      expect(back.status).toBe(200);
      expect(back.body.batch_no).toBe('SPF-2602');
    });

    it('saving the form unchanged never nudges the remaining volume', async () => {
      const row = (await batchRow('SAN-2601'))!;
      const res = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row));
      expect(res.status).toBe(200);
      const after = (await batchRow('SAN-2601'))!;
      expect(after.remainLitres).toBe(row.remainLitres);
      expect(after.volumeLitres).toBe(row.volumeLitres);
    });

    it('an expiry moved into the past warns the fed devices (BATCH_EXPIRED), moving it back clears it', async () => {
      const row = (await batchRow('SPF-2602'))!;
      const fed = await fedBy(row.id);
      expect(fed.length).toBeGreaterThan(0);
      for (const d of fed) expect(d.warningLists).not.toContain('BATCH_EXPIRED');

      const res = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { expiryDate: day(-1) }));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('EXPIRED');
      for (const d of await fedBy(row.id)) expect(d.warningLists).toContain('BATCH_EXPIRED');
      expect(((await get(DIST, '/api/v1/batch/1')).body as BatchBody[]).map((b) => b.batch_no)).not.toContain('SPF-2602');

      expect((await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row))).status).toBe(200);
      for (const d of await fedBy(row.id)) expect(d.warningLists).not.toContain('BATCH_EXPIRED');
    });

    it('accepts the stored type, refuses another one', async () => {
      const row = (await batchRow('SPF-T100'))!;
      expect((await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchType: 1 }))).status).toBe(200);
      const { batchType: _omit, ...withoutType } = editBody(row);
      expect((await post(DIST, `/api/v1/editBatch/${row.id}`, withoutType)).status).toBe(200);
      const res = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchType: 2, batchNumber: 'SPF-T100-X' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ batchType: ['Batch type cannot be changed.'] });
      expect((await batchRow('SPF-T100'))!.batchType).toBe(1);
      expect(await batchRow('SPF-T100-X')).toBeUndefined();
    });

    it('refuses another batch number (any case), allows its own in another case', async () => {
      const row = (await batchRow('SPF-T100'))!;
      const dup = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchNumber: 'san-2601' }));
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ batchNumber: ['already has batch number'] });
      const own = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { batchNumber: 'spf-t100' }));
      expect(own.status).toBe(200);
      expect(own.body.batch_no).toBe('spf-t100');
      expect((await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row))).status).toBe(200);
    });

    it.each(['batchNumber', 'installDate', 'expiryDate', 'batchVolume'])(
      'a missing %s answers Required and changes nothing',
      async (field) => {
        const row = (await batchRow('SPF-T100'))!;
        const body: Record<string, unknown> = editBody(row, { batchNumber: 'SPF-T100-CHANGED', batchVolume: 500 });
        delete body[field];
        const res = await post(DIST, `/api/v1/editBatch/${row.id}`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ [field]: ['Required'] });
        expect(await batchRow('SPF-T100')).toEqual(row);
      },
    );

    it('refuses expiry before install, and wrong types, with 400', async () => {
      const row = (await batchRow('SPF-T100'))!;
      const dates = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, { installDate: day(10), expiryDate: day(5) }));
      expect(dates.body).toEqual({ expiryDate: ['Expiry date must be after the install date.'] });
      for (const over of [
        { batchVolume: 'lots' },
        { batchNumber: ['a'] },
        { installDate: 20260101 },
        { batchType: 'Sunscreen' },
      ]) {
        const res = await post(DIST, `/api/v1/editBatch/${row.id}`, editBody(row, over));
        expect(res.status).toBe(400);
      }
      expect(await batchRow('SPF-T100')).toEqual(row);
    });

    it('unknown id 404, malformed id 400; client and partner 403', async () => {
      const row = (await batchRow('SPF-T100'))!;
      expect((await post(DIST, '/api/v1/editBatch/999999', editBody(row))).status).toBe(404);
      expect((await post(DIST, '/api/v1/editBatch/99999999999', editBody(row))).status).toBe(404);
      expect((await post(DIST, '/api/v1/editBatch/abc', editBody(row))).status).toBe(400);
      for (const email of [CLIENT, PARTNER]) {
        expect((await post(email, `/api/v1/editBatch/${row.id}`, editBody(row, { batchVolume: 1 }))).status).toBe(403);
      }
      expect((await request(h.app).post(`/api/v1/editBatch/${row.id}`).send(editBody(row))).status).toBe(401);
      expect(await batchRow('SPF-T100')).toEqual(row);
    });
  });

  describe('POST /deleteBatch/{id}', () => {
    it('refuses while devices use the batch, naming how many', async () => {
      const row = (await batchRow('SPF-2601'))!;
      const n = (await fedBy(row.id)).length;
      expect(n).toBeGreaterThan(1);
      const res = await post(DIST, `/api/v1/deleteBatch/${row.id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: `Batch is in use by ${n} devices.` });
      expect(await batchRow('SPF-2601')).toBeDefined();
    });

    it('client and partner 403, nothing deleted', async () => {
      const row = (await batchRow('SPF-2603'))!;
      for (const email of [CLIENT, PARTNER]) expect((await post(email, `/api/v1/deleteBatch/${row.id}`)).status).toBe(403);
      expect(await batchRow('SPF-2603')).toBeDefined();
    });

    it('deletes an unused batch; a second delete is 404', async () => {
      const row = (await batchRow('SPF-2603'))!;
      const res = await post(DIST, `/api/v1/deleteBatch/${row.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'Delete batch success!' });
      expect(await batchRow('SPF-2603')).toBeUndefined();
      expect(byNo(await listed(DIST), 'SPF-2603')).toBeUndefined();
      expect((await post(DIST, `/api/v1/deleteBatch/${row.id}`)).status).toBe(404);
      expect((await post(DIST, '/api/v1/deleteBatch/not-a-number')).status).toBe(400);
    });
  });

  describe('POST /recallBatch/{id} and /resumeBatch/{id}', () => {
    const recallMails = (batchNo: string) => h.smtp.received.filter((m) => mailText(m.raw).includes(`Batch ${batchNo} recalled`));

    it('refuses bad bodies and other roles without recalling anything', async () => {
      const row = (await batchRow('SPF-2601'))!;
      expect((await post(DIST, `/api/v1/recallBatch/${row.id}`, { pauseDevices: 'yes' })).body).toEqual({
        pauseDevices: ['Must be true or false.'],
      });
      const bad = await request(h.app)
        .post(`/api/v1/recallBatch/${row.id}`)
        .set('Authorization', `Token ${keys[DIST]}`)
        .set('Content-Type', 'application/json')
        .send('{pause');
      expect(bad.status).toBe(400);
      for (const email of [CLIENT, PARTNER]) {
        expect((await post(email, `/api/v1/recallBatch/${row.id}`, { pauseDevices: true })).status).toBe(403);
        expect((await post(email, `/api/v1/resumeBatch/${row.id}`)).status).toBe(403);
      }
      expect((await request(h.app).post(`/api/v1/recallBatch/${row.id}`)).status).toBe(401);
      expect((await post(DIST, '/api/v1/recallBatch/999999')).status).toBe(404);
      expect((await post(DIST, '/api/v1/resumeBatch/999999')).status).toBe(404);
      const after = (await batchRow('SPF-2601'))!;
      expect(after.isRecalled).toBe(false);
      for (const d of await fedBy(row.id)) expect(d.warningLists).not.toContain('BATCH_RECALLED');
      await drain();
      expect(recallMails('SPF-2601')).toHaveLength(0);
    });

    it('recall with pauseDevices: lists, pauses and warns exactly the fed devices, then mails each client company once', async () => {
      const row = (await batchRow('SPF-2601'))!;
      const distId = await userId(DIST);
      const fed = await fedBy(row.id);
      const wasPaused = new Set(fed.filter((d) => d.isPause).map((d) => d.id));
      expect(fed.length).toBeGreaterThan(5);

      const res = await post(DIST, `/api/v1/recallBatch/${row.id}`, { pauseDevices: true });
      expect(res.status).toBe(200);
      expect(res.body.detail).toBe('Recall batch success!');
      expect(res.body.batch).toMatchObject({ id: row.id, batch_no: 'SPF-2601', is_recalled: true });
      expect(res.body.already_recalled).toBe(false);
      expect(res.body.devices.map((d: { serial: string }) => d.serial).sort()).toEqual(fed.map((d) => d.serial).sort());
      for (const d of res.body.devices) {
        const db = fed.find((f) => f.serial === d.serial)!;
        expect(d.pumps).toEqual([...(db.batchId === row.id ? [1] : []), ...(db.batch2Id === row.id ? [2] : [])]);
        expect(d).toMatchObject({ brand_id: db.brandId, is_pause: true });
        expect(typeof d.brand_name).toBe('string');
        expect(typeof d.address).toBe('string');
      }
      expect(res.body.paused).toBe(fed.length - wasPaused.size);

      const stored = (await batchRow('SPF-2601'))!;
      expect(stored.isRecalled).toBe(true);
      expect(stored.recalledAt).toBeInstanceOf(Date);
      for (const d of await fedBy(row.id)) {
        expect(d.isPause).toBe(true);
        expect(d.warningLists).toContain('BATCH_RECALLED');
      }
      const pending = await db()
        .select()
        .from(pendingChanges)
        .where(
          and(
            inArray(
              pendingChanges.deviceId,
              fed.map((d) => d.id),
            ),
            eq(pendingChanges.setting, 'pause'),
            eq(pendingChanges.status, 'pending'),
          ),
        );
      expect(pending.map((p) => p.deviceId).sort()).toEqual(
        fed
          .filter((d) => !wasPaused.has(d.id))
          .map((d) => d.id)
          .sort(),
      );
      for (const p of pending) expect(p).toMatchObject({ kind: 'other', desired: { is_pause: true }, requestedBy: distId });
      const device = (await get(DIST, `/api/v1/device/${fed[0]!.serial}`)).body;
      expect(device).toMatchObject({ is_pause: true, is_batch_warning: true });
      expect(device.warning_lists).toContain('BATCH_RECALLED');

      // One mail per client company assigned to a brand of an affected device, listing its devices only.
      const clients = await db()
        .selectDistinct({ userId: brandClients.userId, brandId: brandClients.brandId, email: users.email })
        .from(brandClients)
        .innerJoin(users, eq(users.id, brandClients.userId))
        .where(inArray(brandClients.brandId, [...new Set(fed.map((d) => d.brandId!))]));
      const emails = [...new Set(clients.map((c) => c.email))].sort();
      expect(emails).toEqual([CLIENT, CLIENT2].sort());
      expect(res.body.notified.map((n: { email: string }) => n.email).sort()).toEqual(emails);
      await drain();
      const mails = recallMails('SPF-2601');
      expect(
        mails
          .map((m) => m.to)
          .flat()
          .sort(),
      ).toEqual(emails);
      for (const email of emails) {
        const text = mailText(mails.find((m) => m.to.includes(email))!.raw);
        const brandIds = clients.filter((c) => c.email === email).map((c) => c.brandId);
        const own = fed.filter((d) => brandIds.includes(d.brandId!));
        const others = fed.filter((d) => !brandIds.includes(d.brandId!));
        expect(own.length).toBeGreaterThan(0);
        expect(text).toContain('SPF-2601');
        expect(text).toContain('paused');
        for (const d of own) expect(text).toContain(d.serial);
        for (const d of others) expect(text).not.toContain(d.serial);
      }

      // Not offered to device forms any more.
      expect(((await get(DIST, '/api/v1/batch/1')).body as BatchBody[]).map((b) => b.batch_no)).not.toContain('SPF-2601');
      expect(byNo(await listed(CLIENT), 'SPF-2601')).toMatchObject({ is_recalled: true });
    });

    it('recalling again answers the same list, mails nobody and adds no pending change', async () => {
      const row = (await batchRow('SPF-2601'))!;
      const pendingBefore = (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(pendingChanges)
      )[0]!.n;
      const mailsBefore = h.smtp.received.length;
      const res = await post(DIST, `/api/v1/recallBatch/${row.id}`, { pauseDevices: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ detail: 'Recall batch success!', already_recalled: true, paused: 0, notified: [] });
      expect(res.body.batch.recalled_at).toBe(row.recalledAt!.toISOString());
      expect(res.body.devices.map((d: { serial: string }) => d.serial).sort()).toEqual(
        (await fedBy(row.id)).map((d) => d.serial).sort(),
      );
      await drain();
      expect(h.smtp.received.length).toBe(mailsBefore);
      expect(
        (
          await db()
            .select({ n: sql<number>`count(*)::int` })
            .from(pendingChanges)
        )[0]!.n,
      ).toBe(pendingBefore);
    });

    it('resume lifts the recall and BATCH_RECALLED, keeps devices paused and says so', async () => {
      const row = (await batchRow('SPF-2601'))!;
      const fed = await fedBy(row.id);
      const res = await post(DIST, `/api/v1/resumeBatch/${row.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        detail: 'Resume batch success!',
        batch: { id: row.id, is_recalled: false, recalled_at: null },
        still_paused: fed.length,
      });
      expect(res.body.note).toMatch(/still paused/);
      expect(res.body.devices.map((d: { serial: string }) => d.serial).sort()).toEqual(fed.map((d) => d.serial).sort());
      const stored = (await batchRow('SPF-2601'))!;
      expect(stored).toMatchObject({ isRecalled: false, recalledAt: null });
      for (const d of await fedBy(row.id)) {
        expect(d.warningLists).not.toContain('BATCH_RECALLED');
        expect(d.isPause).toBe(true);
      }
      expect(((await get(DIST, '/api/v1/batch/1')).body as BatchBody[]).map((b) => b.batch_no)).toContain('SPF-2601');
      // Resuming a batch that is not recalled is harmless.
      expect((await post(DIST, `/api/v1/resumeBatch/${row.id}`)).status).toBe(200);
    });

    it('a new recall after a resume is a new event: clients are told again', async () => {
      const row = (await batchRow('SPF-2601'))!;
      const before = recallMails('SPF-2601').length;
      const res = await post(DIST, `/api/v1/recallBatch/${row.id}`, {});
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ already_recalled: false, paused: 0 });
      expect(res.body.notified).toHaveLength(2);
      await drain();
      expect(recallMails('SPF-2601').length).toBe(before + 2);
      expect((await post(DIST, `/api/v1/resumeBatch/${row.id}`)).status).toBe(200);
    });

    it('recall without pausing leaves devices running, with the warning', async () => {
      const row = (await batchRow('SAN-2602'))!;
      expect((await fedBy(row.id)).length).toBe(0);
      const res = await post(DIST, `/api/v1/recallBatch/${row.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ devices: [], paused: 0, notified: [], already_recalled: false });
      const san = (await batchRow('SAN-2509'))!;
      const fed = await fedBy(san.id);
      const running = fed.filter((d) => !d.isPause).map((d) => d.id);
      const r2 = await post(DIST, `/api/v1/recallBatch/${san.id}`, { pauseDevices: false });
      expect(r2.body.devices.length).toBe(fed.length);
      expect(r2.body.devices.every((d: { pumps: number[] }) => d.pumps.includes(2))).toBe(true);
      for (const d of await fedBy(san.id)) {
        expect(d.warningLists).toContain('BATCH_RECALLED');
        if (running.includes(d.id)) expect(d.isPause).toBe(false);
      }
      await drain();
      expect((await post(DIST, `/api/v1/resumeBatch/${san.id}`)).status).toBe(200);
      expect((await post(DIST, `/api/v1/resumeBatch/${row.id}`)).status).toBe(200);
    });
  });

  describe('contract', () => {
    it('every batch call is in the OpenAPI document under Batches, with its schemas', async () => {
      const doc = (await request(h.app).get('/api/openapi.json')).body;
      const ops: [string, string][] = [
        ['/api/v1/batch', 'get'],
        ['/api/v1/batch/{pumpTypeCode}', 'get'],
        ['/api/v1/addBatch', 'post'],
        ['/api/v1/editBatch/{id}', 'post'],
        ['/api/v1/deleteBatch/{id}', 'post'],
        ['/api/v1/recallBatch/{id}', 'post'],
        ['/api/v1/resumeBatch/{id}', 'post'],
      ];
      for (const [path, method] of ops) expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['Batches']);
      expect(doc.paths['/api/v1/addBatch'].post.requestBody.content['application/json'].schema.required).toEqual([
        'batchType',
        'batchNumber',
        'installDate',
        'expiryDate',
        'batchVolume',
      ]);
      expect(
        doc.paths['/api/v1/recallBatch/{id}'].post.responses['200'].content['application/json'].schema.properties,
      ).toHaveProperty('devices');
    });

    it('no input makes any batch call answer 500', async () => {
      const id = (await batchRow('SPF-T100'))!.id;
      const bodies: unknown[] = [
        null,
        0,
        'x',
        [],
        {},
        { batchType: {}, batchNumber: {}, installDate: [], expiryDate: true, batchVolume: null },
        { pauseDevices: [] },
        { ['x'.repeat(5000)]: 'y'.repeat(10_240) },
      ];
      for (const path of [
        '/api/v1/addBatch',
        `/api/v1/editBatch/${id}`,
        `/api/v1/recallBatch/${(await batchRow('SPF-2510'))!.id}`,
        '/api/v1/deleteBatch/0',
        '/api/v1/resumeBatch/-1',
      ]) {
        for (const body of bodies) {
          const res = await request(h.app)
            .post(path)
            .set('Authorization', `Token ${keys[DIST]}`)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body));
          expect(res.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBeLessThan(500);
        }
      }
      // An empty or null body is a valid recall: lift it again so the fleet is left as seeded.
      await drain();
      expect((await post(DIST, `/api/v1/resumeBatch/${(await batchRow('SPF-2510'))!.id}`)).status).toBe(200);
      expect((await batchRow('SPF-2510'))!.isRecalled).toBe(false);
    });
  });
  it('keeps every stored list answer equal to a fresh one after all the writes above', async () => {
    const stale = (await h.database.db.execute(
      sql`select serial from devices left join device_list_answers a on a.device_id = devices.id where a.list_json is distinct from device_list_json(devices)`,
    )) as unknown as { rows: { serial: string }[] };
    expect(stale.rows).toEqual([]);
  });
});
