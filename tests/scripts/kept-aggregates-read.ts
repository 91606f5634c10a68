/**
 * A quick figure for docs/fleet-100k.md ("Kept aggregates"): the old scans of the overview, deviceGroup, the
 * county cards and the pin feed against the reads of the kept rows (migration 0025), on PostgreSQL, in a
 * database of its own (created and seeded once by seedScale with no telemetry), and what the trigger adds to
 * a check-in's update of the device row. Usage:
 *   npx tsx tests/scripts/kept-aggregates-read.ts [devices=10000]
 */
import os from 'node:os';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { deviceScope, type ScopeViewer } from '../../server/src/access/scope.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { PIN_TUPLE_SQL } from '../../server/src/devices/pin-sql.ts';
import { overviewRepository } from '../../server/src/overview/overview.repository.ts';
import { seedScale } from '../../server/src/seed/scale.ts';
import { keptScope } from '../../server/src/sites/kept-scope.ts';
import { sitesRepository } from '../../server/src/sites/sites.repository.ts';
import { sitesService } from '../../server/src/sites/sites.service.ts';

const devices = Number(process.argv[2] ?? 10_000);
const name = `kept_aggregates_${devices}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
if (!(await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount)
  await admin.query(`create database ${name}`);
await admin.end();

const database = await openDatabase({ url: `postgres://postgres@127.0.0.1:5432/${name}` });
await migrate(database);
const rows = async <T>(q: SQL) => ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;
const placed = (await rows<{ n: number }>(sql`select count(*)::int as n from devices where group_id is not null`))[0]!.n;
if (placed < devices)
  await seedScale(database, { devices, sites: devices / 10, historyDays: 0, uploadsDir: os.tmpdir(), log: console.log });
await database.db.execute(sql`analyze`);

const time = async (label: string, run: () => Promise<unknown>) => {
  const ms: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: median ${ms[3]!.toFixed(1)} ms, max ${ms[6]!.toFixed(1)} ms`);
};
const distributor: ScopeViewer = { id: 0, access: 'distributor' };
const clientId = (
  await rows<{ id: number }>(sql`select user_id as id from brand_clients group by 1 order by count(*) desc limit 1`)
)[0]!.id;
const client: ScopeViewer = { id: clientId, access: 'client' };
const overview = overviewRepository(database.db);
const sites = sitesRepository(database.db);
// The answer text as before (the scan, then named and written in Node) against the kept read (built in SQL).
const scanned = sitesService({ repo: sites });
const count = await rows<{ n: number }>(sql`select count(*)::int as n from devices where group_id is not null`);
console.log(`${count[0]!.n} placed devices (PostgreSQL); each figure is the call's time seen from Node, 7 runs`);
for (const [who, viewer] of [
  ['distributor', distributor],
  ['client', client],
] as const) {
  const kept = keptScope(viewer)!;
  await time(`overview, ${who}, scan`, () => overview.counts(deviceScope(viewer), undefined));
  await time(`overview, ${who}, kept`, () => overview.keptCounts(kept, undefined));
  await time(`deviceGroup, ${who}, scan`, async () => JSON.stringify(await scanned.deviceGroups(viewer)));
  await time(`deviceGroup, ${who}, kept`, () => sites.keptSitesJson(kept));
  await time(`counties, ${who}, scan`, () => sites.counties(deviceScope(viewer), viewer === distributor));
  await time(`counties, ${who}, kept`, () => sites.keptCounties(kept, viewer === distributor));
}
await time('devicePins, distributor, scan', () =>
  rows(
    sql`select coalesce(json_agg(${PIN_TUPLE_SQL} order by devices.id), '[]')::text from devices where devices.group_id is not null`,
  ),
);
await time('devicePins, distributor, kept', () =>
  rows(sql`select coalesce(json_agg(p.pin), '[]')::text from (select pin from device_pins order by id) p`),
);
// A check-in's update of one device row (what gateway_checkin_finish changes that the kept rows see), with
// and without the trigger of migration 0025, each in a transaction rolled back.
const ids = (await rows<{ id: number }>(sql`select id from devices where group_id is not null order by id limit 50`)).map(
  (r) => r.id,
);
const checkIn = async () => {
  for (const id of ids)
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update devices set last_seen_at = now(), is_online = not is_online, dispensed_ml1 = dispensed_ml1 + 1.5,
        dispense_count1 = dispense_count1 + 1 where id = ${id}`);
        tx.rollback();
      })
      .catch(() => undefined);
};
await time('50 check-in updates, with the kept aggregates', checkIn);
await database.db.execute(sql`alter table devices disable trigger devices_site_aggregates`);
await time('50 check-in updates, without them', checkIn);
await database.db.execute(sql`alter table devices enable trigger devices_site_aggregates`);
await database.close();
