/**
 * Device API benchmark (issue 3 budget: GET overview, deviceGroup and device list each under 150 ms
 * median with 10,000 devices on 1,000 sites and a year of telemetry).
 *
 *   npm run bench:api                     # PostgreSQL at 127.0.0.1:5432, database fleet_bench (created and seeded once)
 *   npm run bench:api -- --pglite         # the embedded database (seeded into a temporary folder)
 *   npm run bench:api -- --devices 10000 --sites 1000 --days 365 --runs 30
 *
 * Prints the median, p95 and answer size per call and role. Not a test: it measures.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { count } from '../../server/src/db/client.ts';
import { openBenchFleet, startBenchPortal } from './bench-fleet.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const usePglite = process.argv.includes('--pglite');
const devices = arg('devices', 10_000);
const sites = arg('sites', 1_000);
const days = arg('days', 365);
const runs = arg('runs', 30);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
const database = await openBenchFleet({ pglite: usePglite, devices, sites, days, dataDir });
const telemetry = await count(database.db, 'pump_events');
const portal = await startBenchPortal(database, dataDir);
const { base, login } = portal;

const results: string[] = [];
for (const email of ['distributor@demo.test', 'client@demo.test', 'partner@demo.test']) {
  const token = await login(email);
  for (const call of ['/api/v1/overview', '/api/v1/deviceGroup', '/api/v1/device']) {
    const times: number[] = [];
    let bytes = 0;
    let items = 0;
    for (let i = 0; i < runs + 3; i++) {
      const t = performance.now();
      const res = await fetch(`${base}${call}`, { headers: { Authorization: `Token ${token}` } });
      const body = await res.text();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`${call} answered ${res.status}: ${body.slice(0, 200)}`);
      if (i >= 3) times.push(ms); // the first calls warm the caches
      bytes = body.length;
      const parsed = JSON.parse(body);
      items = Array.isArray(parsed) ? parsed.length : 1;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const p95 = times[Math.floor(times.length * 0.95)]!;
    results.push(
      `${(usePglite ? 'pglite' : 'postgres').padEnd(9)} ${email.split('@')[0]!.padEnd(12)} GET ${call.padEnd(20)} median ${median.toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  ${String(items).padStart(6)} items ${(bytes / 1024).toFixed(0).padStart(6)} kB${median < 150 ? '' : '  OVER 150 ms BUDGET'}`,
    );
  }
}
console.log(
  `\n${devices} devices, ${sites} sites, ${telemetry} dispense events, ${runs} runs per call on ${os.cpus().length} cores`,
);
for (const line of results) console.log(line);
await portal.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
