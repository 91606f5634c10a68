/**
 * A quick figure for docs/fleet-100k.md: GET /api/v1/deviceRollup's queries (server/src/rollups) on PostgreSQL,
 * in a database of one's own, seeded once by seedScale (a site per 10 devices, no telemetry). Usage:
 *   createdb -h 127.0.0.1 -U postgres rollup_figures
 *   npx tsx tests/scripts/rollup-figures.ts 10000 postgres://postgres@127.0.0.1:5432/rollup_figures
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { DeviceRollupQuery } from '@fleet/shared';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { seedScale } from '../../server/src/seed/scale.ts';
import { rollupsRepository } from '../../server/src/rollups/rollups.repository.ts';
import { rollupsService } from '../../server/src/rollups/rollups.service.ts';

const size = Number(process.argv[2] ?? 10_000);
const url = process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/rollup_figures';
const database = await openDatabase({ url });
await migrate(database);
const one = async <T>(q: ReturnType<typeof sql>) => ((await database.db.execute(q)) as unknown as { rows: T[] }).rows[0]!;
if ((await one<{ n: number }>(sql`select count(*)::int as n from devices`)).n < size)
  await seedScale(database, { devices: size, sites: size / 10, historyDays: 0, uploadsDir: os.tmpdir(), log: console.log });
await database.db.execute(sql`analyze`);

const service = rollupsService(rollupsRepository(database.db));
const distributor = { id: 0, access: 'distributor' as const };
const county = (
  await one<{ id: number }>(sql`select g.location_id as id from devices d join device_groups g on g.id = d.group_id
    group by 1 order by count(*) desc limit 1`)
).id;
const batch = (await one<{ b: string }>(sql`select batch_no as b from batches order by id limit 1`)).b;
const partner = (
  await one<{
    c: string | null;
  }>(sql`select lower(trim(u.company)) as c from user_exclusive_devices x join users u on u.id = x.user_id
    group by 1 order by count(*) desc limit 1`)
)?.c;

async function time(label: string, query: DeviceRollupQuery) {
  const ms: number[] = [];
  let rows = 0;
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    rows = (await service.rollup(distributor, query)).rows.length;
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`| ${label} | ${rows} | ${ms[3]!.toFixed(1)} ms | ${ms[6]!.toFixed(1)} ms |`);
}
console.log(
  `${size} devices; load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ')}`,
);
console.log('| roll-up (distributor) | rows | median | max |\n|---|---|---|---|');
await time('by=county (kept counts)', { by: 'county' });
await time('by=county&batch=', { by: 'county', batch });
await time('by=batch', { by: 'batch' });
await time('by=site&county= (the largest county)', { by: 'site', county });
await time('by=partner', { by: 'partner' });
if (partner) await time('by=county&partner=', { by: 'county', partner });
await database.close();
