/**
 * A quick figure for docs/fleet-100k.md: devicePage's queries at 100,000 devices on PostgreSQL, in a database
 * of its own (fleetsrv_100k, seeded once by seedScale with no telemetry). Usage:
 *   npx tsx tests/scripts/device-page-100k.ts
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { seedScale } from '../../server/src/seed/scale.ts';

const database = await openDatabase({ url: 'postgres://postgres@127.0.0.1:5432/fleetsrv_100k' });
await migrate(database);
const n = ((await database.db.execute(sql`select count(*)::int as n from devices`)) as unknown as { rows: { n: number }[] })
  .rows[0]!.n;
if (n < 100_000)
  await seedScale(database, { devices: 100_000, sites: 10_000, historyDays: 0, uploadsDir: os.tmpdir(), log: console.log });
await database.db.execute(sql`analyze`);
const time = async (label: string, q: ReturnType<typeof sql>) => {
  const ms: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await database.db.execute(q);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: median ${ms[3]!.toFixed(1)} ms, max ${ms[6]!.toFixed(1)} ms`);
};
const page = (where: ReturnType<typeof sql>) => sql`
  select devices.id, device_list_named(coalesce(a.list_json, device_list_json(devices)), b.name, x1.batch_no, x2.batch_no)
  from devices left join device_list_answers a on a.device_id = devices.id left join brands b on b.id = devices.brand_id
  left join batches x1 on x1.id = devices.batch_id left join batches x2 on x2.id = devices.batch2_id
  where devices.group_id is not null and ${where} and devices.id > 50000 order by devices.id limit 101`;
await time('page of 100, deep cursor, no filter', page(sql`true`));
await time('page of 100, status online', page(sql`devices.is_online`));
await time('page of 100, q=sp2400123', page(sql`device_search_key(devices.label, devices.serial) like '%sp2400123%'`));
await time(
  'count, q=beach',
  sql`select count(*) from devices where group_id is not null and device_search_key(label, serial) like '%beach%'`,
);
await time('kept total, fleet', sql`select sum(total) from device_counts`);
await time('count(*) total, fleet', sql`select count(*) from devices where group_id is not null`);
console.log(
  (
    (await database.db.execute(
      sql`select pg_size_pretty(pg_relation_size('devices')) as devices, pg_size_pretty(pg_relation_size('device_list_answers')) as answers`,
    )) as unknown as { rows: unknown[] }
  ).rows,
);
await database.close();
