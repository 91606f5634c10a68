import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches, devices } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
const DAY = 86_400_000;
/** The smallest bytes that start like a JPEG (FF D8 FF E0), padded: the server checks the type and size, not the picture. */
const jpeg = (bytes: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(bytes - 4, 7)]).toString('base64');

/**
 * The field app's records (issue 44): refills change the device through the devices service, a key sent
 * twice is stored once, the phone's time is bounded, a recalled batch is taken with a warning.
 */
describe.each(BACKENDS)('field app records on %s', (backend) => {
  let h: Harness;
  let token: string;
  const serial = 'SP240005';
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    token = h.config.maintenanceToken;
    const batch = (batchNo: string, batchType: number, expireDate: string, isRecalled = false) =>
      h.database.db
        .insert(batches)
        .values({ batchNo, batchType, installDate: '2026-01-01', expireDate, volumeLitres: 10, remainLitres: 10, isRecalled })
        .returning({ id: batches.id })
        .then(([r]) => r!.id);
    ids.good = await batch('FIELD-GOOD', 1, '2099-12-31');
    ids.other = await batch('FIELD-OTHER', 1, '2099-06-30');
    ids.expired = await batch('FIELD-OLD', 1, '2020-01-01');
    ids.sanitizer = await batch('FIELD-SAN', 2, '2099-12-31');
    ids.recalled = await batch('FIELD-RECALL', 1, '2099-12-31');
    await h.database.db
      .update(devices)
      .set({ leftPumpType: 'Sunscreen', rightPumpType: 'Unspecified', volumeRemain: 80, reservoirMl: 1500, batchId: ids.other })
      .where(eq(devices.serial, serial));
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (body: object, who = token) =>
    request(h.app).post('/api/v1/maintenanceRecord').set('Authorization', `Token ${who}`).send(body);
  const device = async () => (await h.database.db.select().from(devices).where(eq(devices.serial, serial)))[0]!;
  const count = async () =>
    Number(
      (
        (await h.database.db.execute(sql`select count(*)::int as n from maintenance_records`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );

  it('a refill sets the pump full and its batch, names the crew, and keeps the time of the act on the phone', async () => {
    const at = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const res = await post({
      serial,
      refills: [{ pump: 1, batch: ids.good }],
      battery_replaced: true,
      performed_at: at,
      idempotency_key: 'key-refill-0001',
      crew: { id: 7, name: 'Crew North' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      serial,
      actions: ['refilled', 'batch_replaced', 'battery_replaced'],
      refills: [{ pump: 1, batch_id: ids.good, batch_no: 'FIELD-GOOD', recalled: false }],
      crew: { id: '7', name: 'Crew North' },
      performed_at: at,
      recorded_by: 'maintenance',
      warnings: [],
      photo_url: null,
    });
    expect(Date.parse(res.body.received_at)).toBeGreaterThan(Date.parse(at));
    const d = await device();
    expect(d.volumeRemain).toBe(1500);
    expect(d.batchId).toBe(ids.good);
    // Through the devices service: the device takes the new volume at its wake-up, as after resetMl.
    const pending = (await h.database.db.execute(
      sql`select setting from pending_changes where device_id = ${d.id} and status = 'pending'`,
    )) as unknown as { rows: { setting: string }[] };
    expect(pending.rows.map((r) => r.setting)).toContain('reset_ml_1');
    // The portal sees the new batch number.
    const seen = await request(h.app).get(`/api/v1/device/${serial}`).set('Authorization', `Token ${token}`);
    expect(seen.body.batchNumber ?? seen.body.batch?.batch_no ?? JSON.stringify(seen.body)).toContain('FIELD-GOOD');
  });

  it('a record sent twice is stored once, also when both arrive together', async () => {
    await h.database.db.update(devices).set({ volumeRemain: 50 }).where(eq(devices.serial, serial));
    const before = await count();
    const body = { serial, refills: [{ pump: 1, batch: 'field-good' }], idempotency_key: 'key-twice-0001' };
    const first = await post(body);
    expect(first.status).toBe(201);
    await h.database.db.update(devices).set({ volumeRemain: 40 }).where(eq(devices.serial, serial));
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    // The repeat changed nothing: the volume the device reported since stays.
    expect((await device()).volumeRemain).toBe(40);
    const racing = await Promise.all(
      [1, 2, 3].map(() => post({ serial, actions: ['repaired'], note: 'Hinge', idempotency_key: 'key-race-00001' })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(racing.map((r) => r.body.id)).size).toBe(1);
    expect(await count()).toBe(before + 2);
    // The same key for another device is a conflict, not a silent answer about the first.
    const other = await post({ serial: 'SP240006', actions: ['repaired'], note: 'x', idempotency_key: 'key-race-00001' });
    expect(other.status).toBe(409);
    expect(other.body).toHaveProperty('idempotency_key');
  });

  it('a batch recalled meanwhile is stored, and the device warns of it; an expired or wrong batch is refused and nothing changes', async () => {
    await h.database.db.update(batches).set({ isRecalled: true, recalledAt: new Date() }).where(eq(batches.id, ids.recalled!));
    const res = await post({
      serial,
      refills: [{ pump: 1, batch: ids.recalled }],
      performed_at: new Date(Date.now() - DAY).toISOString(),
    });
    expect(res.status).toBe(201);
    expect(res.body.refills[0]).toMatchObject({ batch_no: 'FIELD-RECALL', recalled: true });
    expect(res.body.warnings).toEqual([
      'Batch FIELD-RECALL in the left pump was recalled: the device now warns of it (Batch recalled).',
    ]);
    expect((await device()).warningLists).toContain('BATCH_RECALLED');

    await h.database.db.update(devices).set({ volumeRemain: 30, batchId: ids.good }).where(eq(devices.serial, serial));
    const before = await count();
    const expired = await post({ serial, refills: [{ pump: 1, batch: ids.expired }] });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ refills: ['Batch FIELD-OLD had expired (2020-01-01).'] });
    const wrong = await post({ serial, refills: [{ pump: 1, batch: ids.sanitizer }] });
    expect(wrong.body).toEqual({ refills: ['This batch does not hold sunscreen.'] });
    const noPump = await post({ serial, refills: [{ pump: 2, batch: ids.good }] });
    expect(noPump.body).toEqual({ refills: ['Refill 1: this device has no right pump.'] });
    expect(await count()).toBe(before);
    const d = await device();
    expect(d.volumeRemain).toBe(30);
    expect(d.batchId).toBe(ids.good);
  });

  it('the time of the act: within the last 7 days, never in the future', async () => {
    const future = await post({
      serial,
      actions: ['repaired'],
      note: 'x',
      performed_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.status).toBe(400);
    expect(future.body).toEqual({ performed_at: ["The time of the act is in the future: check the phone's clock."] });
    const old = await post({
      serial,
      actions: ['repaired'],
      note: 'x',
      performed_at: new Date(Date.now() - 8 * DAY).toISOString(),
    });
    expect(old.body).toEqual({ performed_at: ['The act is more than 7 days old: records are accepted for 7 days.'] });
    expect((await post({ serial, actions: ['repaired'], performed_at: 'yesterday' })).body).toHaveProperty('performed_at');
    const sixDays = await post({ serial, actions: ['repaired'], performed_at: new Date(Date.now() - 6 * DAY).toISOString() });
    expect(sixDays.status).toBe(201);
  });

  it('names the field of a bad body; repaired needs a note; a photo is a JPEG of at most 1 MB', async () => {
    expect((await post({ serial, repaired: true })).body).toEqual({ note: ['Say what was repaired.'] });
    expect((await post({ serial })).body).toEqual({ actions: ['Choose what was done.'] });
    expect((await post({ serial, refills: [{ pump: 3, batch: 1 }] })).body).toHaveProperty('refills');
    expect(
      (
        await post({
          serial,
          refills: [
            { pump: 1, batch: 1 },
            { pump: 1, batch: 2 },
          ],
        })
      ).body,
    ).toEqual({ refills: ['Each pump is refilled once in a record.'] });
    expect((await post({ serial, battery_replaced: true, idempotency_key: 'short' })).body).toHaveProperty('idempotency_key');
    expect((await post({ serial, battery_replaced: true, crew: { id: 1, name: '' } })).body).toHaveProperty('crew');
    expect((await post({ serial, battery_replaced: true, photo: Buffer.from('GIF89a....').toString('base64') })).body).toEqual({
      photo: ['The photo must be a JPEG.'],
    });
    const tooLarge = await post({ serial, battery_replaced: true, photo: jpeg(1024 * 1024 + 10) });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toEqual({ photo: ['The photo is larger than 1 MB.'] });

    const photo = jpeg(900 * 1024);
    const res = await post({ serial, battery_replaced: true, photo: `data:image/jpeg;base64,${photo}` });
    expect(res.status).toBe(201);
    expect(res.body.photo_url).toBe(`/api/v1/maintenanceRecord/${res.body.id}/photo`);
    const image = await request(h.app).get(res.body.photo_url).set('Authorization', `Token ${token}`).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.from(image.body).equals(Buffer.from(photo, 'base64'))).toBe(true);
    // Large bodies only on this call, and only with a token.
    expect((await request(h.app).post('/api/v1/maintenanceRecord').send({ serial, photo })).status).toBe(401);
    expect((await request(h.app).post('/api/v1/brand').set('Authorization', `Token ${token}`).send({ photo })).status).toBe(413);
  });
});
