/**
 * withListNames gives the text of the database function device_list_named, which it stands in for on the
 * whole list's read (list-names.ts): both run on the same stored answers and names, on a real PGlite
 * database with the real migrations and function bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.ts';
import { withListNames } from './list-names.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({});
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const STORED = JSON.stringify({
  id: 1,
  serial: 'SP1',
  label: 'A "quoted" label \\ with "brand_name":null inside',
  address: 'Straße 1, Zürich 😀',
  brand: 1,
  brand_name: null,
  batch: 2,
  batchNumber: null,
  batch2Number: null,
  batch2: false,
  rental: { start_date: '2026-11-15' },
});

const NAMES: [string | null, string | null, string | null][] = [
  ['Sunny Co', 'B-1', null],
  [null, null, null],
  ['He said "hi"\\', 'tab\there\nnewline', 'ctl\u0001\u001f'],
  ['Åsa’s — 日本 😀', '/slash/', 'é'],
  ['', '', ''],
];

async function named(json: string, [brand, batch, batch2]: (typeof NAMES)[number]): Promise<string> {
  const res = (await database.db.execute(
    sql`select device_list_named(${json}, ${brand}::text, ${batch}::text, ${batch2}::text) as json`,
  )) as unknown as { rows: { json: string }[] };
  return res.rows[0]!.json;
}

describe('withListNames', () => {
  it.each(NAMES)('puts in %j, %j, %j as device_list_named does', async (brand, batch, batch2) => {
    const expected = await named(STORED, [brand, batch, batch2]);
    expect(withListNames(STORED, brand, batch, batch2)).toBe(expected);
    // What a client reads: the names in their fields, the label untouched.
    expect(JSON.parse(expected)).toMatchObject({ brand_name: brand, batchNumber: batch, batch2Number: batch2 });
    expect((JSON.parse(expected) as { label: string }).label).toContain('"brand_name":null');
  });

  it('leaves a text without the keys, or with them in another order, as device_list_named does', async () => {
    const texts = [
      '{"id":1}',
      '{"batch2Number":null,"brand_name":null,"x":1,"batchNumber":null}',
      '{"brand_name":"already","batchNumber":null}',
    ];
    for (const text of texts) expect(withListNames(text, 'B', 'N1', 'N2')).toBe(await named(text, ['B', 'N1', 'N2']));
  });
});
