import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchNumberKey, PIN_BITS, pinBits, type PinFlag } from '@fleet/shared';
import { batches } from '../../server/src/db/schema.ts';
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
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await h.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  it("batch numbers: PostgreSQL's lower(btrim()) is shared's batchNumberKey", async () => {
    for (const value of [' SPF-1 ', 'spf-1', 'SPF 1', 'Ünï-7  ', '\tSPF-1']) {
      const [row] = await rows<{ key: string }>(sql`select lower(btrim(${value})) as key`);
      expect(row!.key, JSON.stringify(value)).toBe(batchNumberKey(value));
    }
  });

  it('the unique index refuses a batch number that differs only in case or surrounding spaces', async () => {
    const [seeded] = await h.database.db.select().from(batches).limit(1);
    const twin = ` ${seeded!.batchNo.toLowerCase()} `;
    const insert = h.database.db.insert(batches).values({ ...seeded!, id: undefined, batchNo: twin } as typeof batches.$inferInsert);
    const refused = await insert.then(
      () => null,
      (err: unknown) => err,
    );
    expect(isUniqueViolation(refused)).toBe(true);
    const [index] = await rows<{ def: string }>(sql`select indexdef as def from pg_indexes where indexname = 'batches_batch_no_key' and schemaname = current_schema()`);
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
});
