import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchNumberKey,
  deviceAnswerSchema,
  deviceListItemSchema,
  PENDING_CHANGE_STATES,
  PIN_BITS,
  pinBits,
  type PinFlag,
} from '@fleet/shared';
import { migrate } from '../../server/src/db/migrate.ts';
import { batches, devices, pendingChanges } from '../../server/src/db/schema.ts';
import { devicesRepository } from '../../server/src/devices/devices.repository.ts';
import { isUniqueViolation } from '../../server/src/lib/errors.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

/** Rules kept once in shared/ and used in SQL: the database must agree with them (issue 45). */
describe.each(BACKENDS)('one rule, in TypeScript and in SQL, on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  });
  afterAll(async () => {
    await h?.close();
  });
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await h.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  it("batch numbers: PostgreSQL's lower(btrim()) is shared's batchNumberKey", async () => {
    for (const value of [' SPF-1 ', 'spf-1', 'SPF 1', 'Ünï-7  ', '\tSPF-1']) {
      const [row] = await rows<{ key: string }>(sql`select lower(btrim(${value})) as key`);
      expect(row!.key, JSON.stringify(value)).toBe(batchNumberKey(value));
    }
  });

  it('the unique index refuses a batch number that differs only in case or surrounding spaces', async () => {
    const [seeded] = await h.database.db.select().from(batches).limit(1);
    const twin = ` ${seeded!.batchNo.toLowerCase()} `;
    const insert = h.database.db
      .insert(batches)
      .values({ ...seeded!, id: undefined, batchNo: twin } as typeof batches.$inferInsert);
    const refused = await insert.then(
      () => null,
      (err: unknown) => err,
    );
    expect(isUniqueViolation(refused)).toBe(true);
    const [index] = await rows<{ def: string }>(
      sql`select indexdef as def from pg_indexes where indexname = 'batches_batch_no_key' and schemaname = current_schema()`,
    );
    expect(index!.def).toContain('lower(btrim(batch_no))');
  });

  it('pin bits: the feed packed in SQL decodes to each device flag as PIN_BITS says', async () => {
    const flags = Object.keys(PIN_BITS) as PinFlag[];
    const devices = await rows<Record<PinFlag, boolean> & { serial: string }>(
      sql.raw(`select serial, ${flags.join(', ')} from devices where group_id is not null order by id`),
    );
    const pins = JSON.parse(await devicesRepository(h.database.db).pinsJson(undefined)) as [string, unknown, unknown, number][];
    const bitsOf = new Map(pins.map((p) => [p[0], p[3]]));
    expect(devices.length).toBeGreaterThan(0);
    for (const d of devices) expect(bitsOf.get(d.serial), d.serial).toBe(pinBits(d));
  });

  it('pending changes: the CHECK constraint holds the states of PENDING_CHANGE_STATES, and refuses another', async () => {
    const [row] = await rows<{ def: string }>(sql`select pg_get_constraintdef(c.oid) as def from pg_constraint c
      join pg_class t on t.oid = c.conrelid where c.conname = 'pending_changes_status_check' and t.relnamespace = current_schema()::regnamespace`);
    expect([...row!.def.matchAll(/'([a-z]+)'/g)].map((m) => m[1]).sort()).toEqual([...PENDING_CHANGE_STATES].sort());
    const [device] = await h.database.db.select({ id: devices.id }).from(devices).limit(1);
    const refused = await h.database.db
      .insert(pendingChanges)
      .values({ deviceId: device!.id, kind: 'other', setting: 'pause', desired: true, status: 'superseded' })
      .then(
        () => null,
        (err: { code?: string; cause?: { code?: string } }) => err.cause?.code ?? err.code,
      );
    expect(refused).toBe('23514');
  });

  it('database functions: each has the body of its file in server/src/db/functions, applied by the migrator', async () => {
    const folder = path.resolve(import.meta.dirname, '../../server/src/db/functions');
    const files = fs.readdirSync(folder).filter((f) => f.endsWith('.sql'));
    expect(files.length).toBeGreaterThan(0);
    // A body changed behind the migrator's back is the file's again after the next start's migrate().
    await h.database.exec(
      `CREATE OR REPLACE FUNCTION batch_consumption_fold(p_batch int) RETURNS int LANGUAGE plpgsql AS $fn$ BEGIN RETURN 0; END $fn$;`,
    );
    await migrate(h.database);
    for (const file of files) {
      const text = fs.readFileSync(path.join(folder, file), 'utf8');
      const bodies = [...text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(([^)]*)\).*?AS \$(\w*)\$(.*?)\$\3\$;/gs)];
      expect(new Set(bodies.map((m) => m[1])), file).toEqual(new Set([file.replace(/\.sql$/, '')]));
      const name = file.replace(/\.sql$/, '');
      const found = await rows<{ src: string }>(
        sql`select p.prosrc as src from pg_proc p where p.proname = ${name} and p.pronamespace = current_schema()::regnamespace`,
      );
      // Every overload of the name, each with its file's body.
      expect(found.map((f) => f.src).sort(), name).toEqual(bodies.map((m) => m[4]).sort());
    }
  });

  it('the device answers parse with the shared schemas (list and one device)', async () => {
    const key = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' }))
      .body.auth_token as string;
    const list = await request(h.app).get('/api/v1/device').set('Authorization', `Token ${key}`);
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    for (const item of list.body) deviceListItemSchema.parse(item);
    const [placed] = await h.database.db
      .select({ serial: devices.serial })
      .from(devices)
      .where(eq(devices.serial, list.body[0].serial));
    const one = await request(h.app).get(`/api/v1/device/${placed!.serial}`).set('Authorization', `Token ${key}`);
    expect(one.status).toBe(200);
    deviceAnswerSchema.parse(one.body);
  });
});
