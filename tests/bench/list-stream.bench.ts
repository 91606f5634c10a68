/**
 * The whole device list (GET /api/v1/device) read cold, one caller at a time (issue 46: p50 < 2 s at
 * 100,000 devices, and never more than 64 MB of the server's memory for it, measured as the server's RSS
 * growth during the call). Not a test: it measures.
 *
 *   npx tsx tests/bench/list-stream.bench.ts                       # 10,000 devices on 1,000 sites, PostgreSQL
 *   npx tsx tests/bench/list-stream.bench.ts --devices 100000 --sites 10000 --runs 7
 *   npx tsx tests/bench/list-stream.bench.ts --pglite               # the embedded database
 *   npx tsx tests/bench/list-stream.bench.ts --devices 100000 --sites 10000 --slow-host 4900 --checkins 200
 *       # as inside `npm run bench`'s REST round: a calibrated CPU load (slow-host.ts) until /healthz reads
 *       # about 4,900 req/s, and device check-ins at 200/s to a gateway process on the same database
 *       # (checkin-load.ts), their p50 / p99 printed beside the reads
 *
 * The server is the bench's own process (rest-server.ts, on the bench fleet of bench-fleet.ts, one day of
 * telemetry unless --days). Each cold call asks `Cache-Control: no-cache`, past the 2 s cache: the server
 * checks its kept pieces against the sites' list versions and reads and compresses again those that changed
 * (server/src/devices/kept-list.ts). The server's first read, with nothing kept (as after a restart), is
 * timed and printed on its own. Its peak RSS is reset before each call (rest-server.ts 'rss-reset') and read
 * after it. A warm call (the answer the cold one left in the cache) is timed beside it.
 */
import os from 'node:os';
import zlib from 'node:zlib';
import { checkinLoad } from './checkin-load.ts';
import autocannon from './lean-autocannon.ts';
import { rawGet } from './raw-get.ts';
import { startRestServer, type RestServerProcess } from './rest-server-process.ts';
import { calibratedLoad, type CpuLoad } from './slow-host.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const devices = arg('devices', 10_000);
const sites = arg('sites', devices / 10);
const days = arg('days', 1);
const runs = arg('runs', 5);
const pglite = process.argv.includes('--pglite');
const slowHost = arg('slow-host', 0);
const checkinRate = arg('checkins', 0);
if (checkinRate && pglite) throw new Error('--checkins needs PostgreSQL: the gateway process shares the database');

const fleetArgs = ['--devices', String(devices), '--sites', String(sites), '--days', String(days)];
const server = await startRestServer([...fleetArgs, ...(pglite ? ['--pglite'] : [])]);
let load: CpuLoad | null = null;
let gateway: RestServerProcess | null = null;
try {
  const login = await fetch(`${server.base}/auth/token/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
  });
  const auth = { Authorization: `Token ${((await login.json()) as { auth_token: string }).auth_token}` };
  /** One call, its compressed body read whole as it came and not decoded (raw-get.ts). */
  const call = async (cold: boolean) => {
    const headers = { ...auth, 'accept-encoding': 'gzip', ...(cold ? { 'cache-control': 'no-cache' } : {}) };
    const r = await rawGet(`${server.base}/api/v1/device`, headers);
    if (r.status !== 200) throw new Error(`GET /api/v1/device answered ${r.status}`);
    return { ms: r.ms, body: r.encoding === 'gzip' ? r.body : zlib.gzipSync(r.body) };
  };
  // The host named by its /healthz rate at 50 connections (issue 46: the budgets are for a host at about 4,900).
  const healthzRate = async () =>
    (await autocannon({ url: `${server.base}/healthz`, connections: 50, duration: 3 })).requests.average;
  if (slowHost) {
    const calibrated = await calibratedLoad(healthzRate, slowHost);
    load = calibrated.load;
    console.log(
      load
        ? `--slow-host ${slowHost}: a CPU load of ${(calibrated.calibration.duty * 100).toFixed(0)} % of each core`
        : `--slow-host ${slowHost}: the host is already slower (${calibrated.calibration.rps.toFixed(0)} req/s), no load added`,
    );
  }
  const healthz = await healthzRate();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  // The server's first read of the list: nothing kept yet (server/src/devices/kept-list.ts), every piece read
  // from the database and compressed, as after a restart. The cold reads below find the pieces kept and read
  // again only those whose sites changed since (with --checkins, the check-ins' sites).
  const firstBefore = (await server.rss('reset')).rss;
  const first = await call(true);
  const firstGrowth = (await server.rss()).peak - firstBefore;
  console.log(`first read (nothing kept): ${first.ms.toFixed(0)} ms, RSS growth ${mb(firstGrowth)} MB`);
  // Check-ins for the whole measurement, started (and their devices' secrets rotated) before it.
  let checkins: Awaited<ReturnType<typeof checkinLoad>> | null = null;
  if (checkinRate) {
    gateway = await startRestServer(['--gateway', ...fleetArgs]);
    const listBody = zlib.gunzipSync(first.body);
    // Long enough for every run at the cold read's worst seen inside the round (5 s) and its warm read.
    checkins = await checkinLoad(server.base, auth, listBody, {
      rate: checkinRate,
      seconds: 3 + runs * 7,
      devices: 1000,
      gateway: gateway.base,
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  console.log(
    `/healthz ${healthz.toFixed(0)} req/s, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const cold: number[] = [];
  const warm: number[] = [];
  const growth: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = (await server.rss('reset')).rss;
    const r = await call(true);
    growth.push((await server.rss()).peak - before);
    cold.push(r.ms);
    warm.push((await call(false)).ms);
    if (i === 0) {
      const text = zlib.gunzipSync(r.body);
      const items = (JSON.parse(text.toString()) as unknown[]).length;
      console.log(`${items} devices in the answer, ${mb(text.length)} MB of JSON, ${mb(r.body.length)} MB gzip`);
    }
    console.log(
      `run ${i + 1}: cold ${cold.at(-1)!.toFixed(0)} ms, RSS growth ${mb(growth.at(-1)!)} MB; warm ${warm.at(-1)!.toFixed(0)} ms`,
    );
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  if (checkins) {
    const c = await checkins.result;
    console.log(
      `check-ins at ${checkinRate}/s through the runs (and after them, to the load's end): p50 ${c.p50.toFixed(1)} / p99 ` +
        `${c.p99.toFixed(1)} ms, ${c.sent} sent, ${c.errors} errors`,
    );
  }
  console.log(
    `\n${pglite ? 'PGlite' : 'PostgreSQL'}, ${devices} devices on ${sites} sites: GET /api/v1/device cold p50 ${p50(cold).toFixed(0)} ms ` +
      `(budget 2,000 at 100,000), warm p50 ${p50(warm).toFixed(0)} ms; the first read (nothing kept) ${first.ms.toFixed(0)} ms; ` +
      `server RSS growth during a cold call: first read ${mb(firstGrowth)} MB, then at most ${mb(Math.max(...growth))} MB ` +
      `(budget 64); /healthz ${healthz.toFixed(0)} req/s` +
      `${load ? ` with the slow-host load` : ''}${checkinRate ? `; check-ins at ${checkinRate}/s beside the calls` : ''}`,
  );
} finally {
  load?.stop();
  await gateway?.stop();
  await server.stop();
}
