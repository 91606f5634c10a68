/**
 * Server side of issue 16, measured on the scale seed beside same-run baselines. Not a test: it measures.
 *
 *   npx tsx tests/bench/server-perf.bench.ts                       # PostgreSQL, 10,000 devices / 1,000 sites, 1 day of telemetry
 *   npx tsx tests/bench/server-perf.bench.ts --pglite --seconds 5  # the embedded database
 *   npx tsx tests/bench/server-perf.bench.ts --devices 10000 --sites 1000 --days 1 --only rename,rest
 *
 * rename  brand and batch renames through the API (median of 5 each), beside what migrations 0003-0009 made
 *         the same rename do (the trigger's rewrite of every device of that brand or batch, run and rolled back)
 * rest    autocannon, 50 connections: overview, deviceGroup, location, devicePins (gzip), device/{serial},
 *         the device list (gzip and plain) beside /healthz, with the server's peak RSS (its own process)
 * Telemetry history does not enter these calls (usage totals are running totals), so one day of it is
 * enough and the seed takes a minute rather than the full year's.
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from './lean-autocannon.ts';
import { sql } from 'drizzle-orm';
import { openBenchFleet } from './bench-fleet.ts';
import { startRestServer } from './rest-server-process.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const pglite = process.argv.includes('--pglite');
const fleet = { devices: Number(arg('devices', '10000')), sites: Number(arg('sites', '1000')), days: Number(arg('days', '1')) };
const seconds = Number(arg('seconds', '10'));
const only = new Set(arg('only', 'rename,rest').split(','));
const fleetArgs = [
  ...(pglite ? ['--pglite'] : []),
  '--devices',
  String(fleet.devices),
  '--sites',
  String(fleet.sites),
  '--days',
  String(fleet.days),
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

console.log(
  `server-perf: ${fleet.devices} devices, ${fleet.sites} sites on ${pglite ? 'PGlite' : 'PostgreSQL'}; ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`,
);

// The fleet is seeded by the server process the first time; opened here too for the rename baseline.
const server = await startRestServer(fleetArgs);
const token = (
  (await (
    await fetch(`${server.base}/auth/token/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
    })
  ).json()) as { auth_token: string }
).auth_token;
const auth = { Authorization: `Token ${token}` };
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  console.log(line);
};

if (only.has('rename')) {
  const dataDir = path.join(os.tmpdir(), `server-perf-${process.pid}`);
  const database = await openBenchFleet({ pglite: false, ...fleet, dataDir }).catch(() => undefined);
  const rows = async <T>(q: ReturnType<typeof sql>) => ((await database!.db.execute(q)) as unknown as { rows: T[] }).rows;
  const [brand] = database
    ? await rows<{ id: number; name: string; n: number }>(
        sql`select b.id, b.name, count(*)::int as n from brands b join devices d on d.brand_id = b.id group by b.id order by n desc limit 1`,
      )
    : [];
  const [batch] = database
    ? await rows<{
        id: number;
        batch_no: string;
        batch_type: number;
        install_date: string;
        expire_date: string;
        volume_litres: number;
        n: number;
      }>(
        sql`select x.id, x.batch_no, x.batch_type, x.install_date::text, x.expire_date::text, x.volume_litres, count(*)::int as n from batches x join devices d on d.batch_id = x.id group by x.id order by n desc limit 1`,
      )
    : [];
  if (brand && batch && database) {
    const timed = async (fn: () => Promise<Response>) => {
      const t = performance.now();
      const res = await fn();
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`rename answered ${res.status}`);
      return performance.now() - t;
    };
    const brandTimes: number[] = [];
    const batchTimes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const form = new FormData();
      form.set('name', i % 2 ? brand.name : `${brand.name} (renamed)`);
      brandTimes.push(
        await timed(() => fetch(`${server.base}/api/v1/brand/${brand.id}`, { method: 'PUT', headers: auth, body: form })),
      );
      const body = {
        batchType: batch.batch_type,
        batchNumber: i % 2 ? batch.batch_no : `${batch.batch_no}-R`,
        installDate: batch.install_date,
        expiryDate: batch.expire_date,
        batchVolume: Math.round((batch.volume_litres / 0.0295735) * 100) / 100,
      };
      batchTimes.push(
        await timed(() =>
          fetch(`${server.base}/api/v1/editBatch/${batch.id}`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        ),
      );
    }
    // What the dropped triggers made the same rename do: every device of it rewritten (its list answer recomputed).
    const oldWay = async (where: ReturnType<typeof sql>) => {
      const t = performance.now();
      await database.db
        .transaction(async (tx) => {
          // Every device of it gets its list answer computed again (device_list_answers, migration 0022).
          await tx.execute(
            sql`insert into device_list_answers as a (device_id, list_json) select id, device_list_json(devices) from devices where ${where} on conflict (device_id) do update set list_json = excluded.list_json`,
          );
          tx.rollback();
        })
        .catch(() => undefined);
      return performance.now() - t;
    };
    const oldBrand = median([
      await oldWay(sql`brand_id = ${brand.id}`),
      await oldWay(sql`brand_id = ${brand.id}`),
      await oldWay(sql`brand_id = ${brand.id}`),
    ]);
    const oldBatch = median([
      await oldWay(sql`batch_id = ${batch.id} or batch2_id = ${batch.id}`),
      await oldWay(sql`batch_id = ${batch.id} or batch2_id = ${batch.id}`),
      await oldWay(sql`batch_id = ${batch.id} or batch2_id = ${batch.id}`),
    ]);
    say(
      `rename  brand (${brand.n} devices) through PUT /brand: median ${fmt(median(brandTimes.slice(1)), 1)} ms   | before 0013 its trigger alone: ${fmt(oldBrand, 1)} ms rewriting ${brand.n} device rows`,
    );
    say(
      `rename  batch (${batch.n} devices) through POST /editBatch: median ${fmt(median(batchTimes.slice(1)), 1)} ms   | before 0013 its trigger alone: ${fmt(oldBatch, 1)} ms rewriting ${batch.n} device rows`,
    );
    await database.close();
  } else say('rename  skipped (needs the PostgreSQL bench fleet)');
}

if (only.has('rest')) {
  const cannon = async (url: string, headers: Record<string, string> = {}) => {
    const r = await autocannon({ url, connections: 50, duration: seconds, headers, timeout: 30 });
    await fetch(url, { headers }).then((res) => res.arrayBuffer());
    return `${fmt(r.requests.average)} req/s, p50 ${fmt(r.latency.p50)} / p99 ${fmt(r.latency.p99)} ms, ${fmt(r.throughput.average / Math.max(1, r.requests.average) / 1024, 1)} kB an answer${r.errors + r.timeouts + r.non2xx ? `, ${r.errors + r.timeouts + r.non2xx} errors` : ''}`;
  };
  const serial = (
    (await (await fetch(`${server.base}/api/v1/deviceRegistered`, { headers: auth })).json()) as { serial: string }[]
  )[0]!.serial;
  const peakBefore = (await server.rss()).peak;
  say(`rest    GET /healthz                          ${await cannon(`${server.base}/healthz`)}`);
  const calls: [string, string, Record<string, string>][] = [
    ['GET /api/v1/overview', '/api/v1/overview', auth],
    ['GET /api/v1/deviceGroup', '/api/v1/deviceGroup', auth],
    ['GET /api/v1/location', '/api/v1/location', auth],
    ['GET /api/v1/devicePins (gzip)', '/api/v1/devicePins', { ...auth, 'accept-encoding': 'gzip' }],
    ['GET /api/v1/device/{serial}', `/api/v1/device/${serial}`, auth],
    ['GET /api/v1/device (gzip)', '/api/v1/device', { ...auth, 'accept-encoding': 'gzip' }],
    ['GET /api/v1/device (plain)', '/api/v1/device', auth],
  ];
  for (const [name, call, headers] of calls) say(`rest    ${name.padEnd(38)}${await cannon(`${server.base}${call}`, headers)}`);
  const { peak } = await server.rss();
  say(`rest    server peak RSS ${fmt(peak / 1024 / 1024)} MB (${fmt(peakBefore / 1024 / 1024)} MB before the round)`);
}

await server.stop();
console.log(`\n${lines.join('\n')}`);
process.exit(0);
