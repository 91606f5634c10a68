import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches, brands, devices } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

/**
 * Migration 0013: brand and batch names are joined into the device answers at read time, so a rename
 * updates one row and leaves every device row (and its lock) alone, and the list text is what it was.
 */
describe.each(BACKENDS)('renaming brands and batches on %s', (backend) => {
  let h: Harness;
  let token = '';
  beforeAll(async () => {
    h = await startHarness(backend);
    token = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
  });
  afterAll(async () => {
    await h?.close();
  });
  const auth = () => ({ Authorization: `Token ${token}` });
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await h.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  /** The transaction id that last wrote each device row: unchanged means the row was neither written nor locked for a write. */
  const deviceVersions = async () => rows<{ id: number; v: string }>(sql`select id, xmin::text as v from devices order by id`);

  /**
   * The list answer as migrations 0003-0009 stored it, names inside: device_list_json with the other
   * tables' part carrying brand_name, batchNumber and batch2Number again.
   */
  const listAsBefore = async () => {
    const list = await rows<{ json: string }>(sql`
      select device_list_json(d, json_build_object(
               'location_id', f->'location_id',
               'brand_name', (select b.name from brands b where b.id = d.brand_id),
               'batchNumber', (select x.batch_no from batches x where x.id = d.batch_id),
               'batch2Number', (select x.batch_no from batches x where x.id = d.batch2_id),
               'pending_flags', f->'pending_flags', 'rental', f->'rental', 'market_partners', f->'market_partners')) as json
      from devices d cross join lateral (select device_list_foreign(d) as f) s
      where d.group_id is not null
      order by d.group_id, d.number, d.serial`);
    return `[${list.map((r) => r.json).join(',')}]`;
  };

  it('answers GET /device with the same text as the stored answers with names did', async () => {
    const res = await request(h.app).get('/api/v1/device').set(auth()).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.text).toBe(await listAsBefore());
    expect(res.body.some((d: { brand_name: string | null }) => d.brand_name)).toBe(true);
    expect(res.body.some((d: { batch2Number: string | null }) => d.batch2Number)).toBe(true);
  });

  it('stores no names in list_json: the reads put them in', async () => {
    const named = await rows<{ n: number }>(sql`
      select count(*)::int as n from device_list_answers
      where list_json::json->>'brand_name' is not null or list_json::json->>'batchNumber' is not null or list_json::json->>'batch2Number' is not null`);
    expect(named[0]!.n).toBe(0);
  });

  it('renames a brand without writing a device row; every answer shows the new name at once', async () => {
    const [brand] = await h.database.db
      .select()
      .from(brands)
      .where(sql`exists (select 1 from devices d where d.brand_id = ${brands.id} and d.group_id is not null)`)
      .limit(1);
    const before = await deviceVersions();
    const name = `Renamed "Brand" \\ ${backend}`;
    const res = await request(h.app).put(`/api/v1/brand/${brand!.id}`).set(auth()).field('name', name);
    expect(res.status).toBe(200);
    expect(await deviceVersions()).toEqual(before);

    const list = (await request(h.app).get('/api/v1/device').set(auth())).body as {
      serial: string;
      brand: number;
      brand_name: string;
    }[];
    const mine = list.filter((d) => d.brand === brand!.id);
    expect(mine.length).toBeGreaterThan(0);
    for (const d of mine) expect(d.brand_name).toBe(name);
    const one = await request(h.app).get(`/api/v1/device/${mine[0]!.serial}`).set(auth());
    expect(one.body.brand_name).toBe(name);
    expect((await request(h.app).get('/api/v1/device').set(auth()).set('Accept-Encoding', 'identity')).text).toBe(
      await listAsBefore(),
    );
  });

  it('renames a batch without writing a device row; both pumps show the new number', async () => {
    const [batch] = await h.database.db
      .select()
      .from(batches)
      .where(sql`exists (select 1 from devices d where d.batch_id = ${batches.id} and d.group_id is not null)`)
      .limit(1);
    const before = await deviceVersions();
    const batchNumber = `${batch!.batchNo}-R`;
    const res = await request(h.app)
      .post(`/api/v1/editBatch/${batch!.id}`)
      .set(auth())
      .send({
        batchType: batch!.batchType,
        batchNumber,
        installDate: batch!.installDate,
        expiryDate: batch!.expireDate,
        batchVolume: Math.round((batch!.volumeLitres / 0.0295735) * 100) / 100,
      });
    expect(res.status).toBe(200);
    expect(await deviceVersions()).toEqual(before);
    expect((await h.database.db.select().from(batches).where(eq(batches.id, batch!.id)))[0]!.batchNo).toBe(batchNumber);

    const list = (await request(h.app).get('/api/v1/device').set(auth())).body as {
      serial: string;
      batch: number;
      batchNumber: string;
    }[];
    const fed = list.filter((d) => d.batch === batch!.id);
    expect(fed.length).toBeGreaterThan(0);
    for (const d of fed) expect(d.batchNumber).toBe(batchNumber);
    expect((await request(h.app).get(`/api/v1/device/${fed[0]!.serial}`).set(auth())).body.batchNumber).toBe(batchNumber);
    expect((await request(h.app).get('/api/v1/device').set(auth()).set('Accept-Encoding', 'identity')).text).toBe(
      await listAsBefore(),
    );
  });

  it('a batch edit that changes the expiry still recomputes the warnings of the devices it feeds', async () => {
    const [batch] = await h.database.db
      .select()
      .from(batches)
      .where(sql`exists (select 1 from devices d where d.batch_id = ${batches.id} and d.group_id is not null)`)
      .limit(1);
    const [fed] = await h.database.db.select().from(devices).where(eq(devices.batchId, batch!.id)).limit(1);
    const edit = (installDate: string, expiryDate: string) =>
      request(h.app)
        .post(`/api/v1/editBatch/${batch!.id}`)
        .set(auth())
        .send({
          batchType: batch!.batchType,
          batchNumber: batch!.batchNo,
          installDate,
          expiryDate,
          batchVolume: Math.round((batch!.volumeLitres / 0.0295735) * 100) / 100,
        });
    const device = async () => (await h.database.db.select().from(devices).where(eq(devices.id, fed!.id)))[0]!;
    expect((await edit('2000-01-01', '2000-01-02')).status).toBe(200);
    expect((await device()).isBatchWarning).toBe(true);
    expect((await device()).warningLists).not.toEqual(fed!.warningLists);
    expect((await edit(batch!.installDate, batch!.expireDate)).status).toBe(200);
    expect((await device()).warningLists).toEqual(fed!.warningLists);
    expect((await device()).isBatchWarning).toBe(fed!.isBatchWarning);
  });

  it('keeps every stored list answer equal to a fresh one', async () => {
    const stale = await rows<{ serial: string }>(
      sql`select serial from devices left join device_list_answers a on a.device_id = devices.id where a.list_json is distinct from device_list_json(devices)`,
    );
    expect(stale).toEqual([]);
  });
});
