/**
 * A quick figure for docs/fleet-100k.md "Selections on the server": resolving selections on PostgreSQL, read
 * only, in a seeded database: fleetsrv_100k by default (tests/scripts/device-page-100k.ts seeds it), or
 * SELECTION_DB_URL with SELECTION_MIN_DEVICES. Usage:
 *   npx tsx tests/scripts/selection-100k.ts
 */
import { sql } from 'drizzle-orm';
import { deviceSelectionSchema, type DeviceSelectionInput } from '@fleet/shared';
import { openDatabase } from '../../server/src/db/client.ts';
import { selectionRepository } from '../../server/src/devices/device-selection.ts';

const url = process.env.SELECTION_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/fleetsrv_100k';
const least = Number(process.env.SELECTION_MIN_DEVICES ?? 100_000);
const database = await openDatabase({ url });
const n = ((await database.db.execute(sql`select count(*)::int as n from devices`)) as unknown as { rows: { n: number }[] })
  .rows[0]!.n;
if (n < least) throw new Error(`${url} has ${n} devices: run tests/scripts/device-page-100k.ts first`);
const repo = selectionRepository(database.db);
const serials = (
  (await database.db.execute(sql`select serial from devices where group_id is not null order by id limit 2000`)) as unknown as {
    rows: { serial: string }[];
  }
).rows.map((r) => r.serial);
const time = async (label: string, input: DeviceSelectionInput, limit: number) => {
  const selection = deviceSelectionSchema.parse(input);
  const ms: number[] = [];
  let total = 0;
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    [total] = await Promise.all([repo.count(undefined, selection), repo.serials(undefined, selection, limit)]);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: ${total} devices, median ${ms[3]!.toFixed(1)} ms, max ${ms[6]!.toFixed(1)} ms`);
};
await time('Select All, no search (count only)', { steps: [{ op: 'select', filter: {} }] }, 0);
await time('Select All of a search, count and 2000 serials', { steps: [{ op: 'select', filter: { q: 'sp24001' } }] }, 2000);
await time(
  '2000 serials, Select All of a search, Clear All of another, 2 toggles',
  {
    steps: [
      { op: 'add', serials },
      { op: 'select', filter: { q: 'sp2401' } },
      { op: 'deselect', filter: { q: 'sp24012' } },
      { op: 'add', serials: [serials[0]!] },
      { op: 'remove', serials: [serials[1]!] },
    ],
  },
  0,
);
await time('a county, not of brand 1 (the transfer dialog)', { filter: { county: 1, notBrand: 1 } }, 0);
await database.close();
