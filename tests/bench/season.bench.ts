/**
 * The season benchmark (issues 47 and 48; docs/simulator.md): a fleet on the simulated clock, in process,
 * under each service policy on the same customers: Service day's planner against the naive policy (and
 * the baselines). Prints the host (a bare /healthz's rate on it), K (the crews), the runner's time and, per
 * policy, the share of pump-hours empty (08:00-19:00 site time), km driven, visits, the share of visits to
 * pumps still more than half full and customers turned away; `RESULT` lines for run-all.ts.
 *
 *   npx tsx tests/bench/season.bench.ts                       # 500 units, 60 days, 3 crews, planner and naive
 *   npx tsx tests/bench/season.bench.ts --devices 50 --days 7 # a short one
 *   ... --policies planner,naive,none,site-staff --crews 3 --seed 1 --scenarios
 *   ... --margin 1 --topup 3 --reserve 0                      # the planner's rules (PLANNER below)
 */
import http from 'node:http';
import { DUE_MARGIN_DAYS, TOP_UP_DAYS } from '@fleet/shared';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import autocannon from './lean-autocannon.ts';
import { plannerPolicy, seasonStock } from '../../workers/src/simulator/planner-policy.ts';
import {
  defaultCrews,
  naivePolicy,
  nonePolicy,
  runSeason,
  seasonFleet,
  siteStaffPolicy,
  type SeasonReport,
  type ServicePolicy,
} from '../../workers/src/simulator/season.ts';
import { seasonScenarios } from '../../workers/src/simulator/scenarios.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const devices = Number(opt('devices', '500'));
const days = Number(opt('days', '60'));
const crewCount = Number(opt('crews', String(Math.max(1, Math.round(devices / 170)))));
const seed = Number(opt('seed', '1'));
const withScenarios = argv.includes('--scenarios');
const start = Date.UTC(2026, 5, 1, 5, 0); // 1 June 2026, 00:00 in New Orleans
const fleet = seasonFleet(seed, { devices, start });
/** The portal's planner as it is: its margin and top-up (the top-up's 4 days were tuned on this benchmark, PERFORMANCE.md). */
const PLANNER = { marginDays: DUE_MARGIN_DAYS, topUpDays: TOP_UP_DAYS, reserveMl: 0 };
const rules = {
  marginDays: Number(opt('margin', String(PLANNER.marginDays))),
  topUpDays: Number(opt('topup', String(PLANNER.topUpDays))),
  reserveMl: Number(opt('reserve', String(PLANNER.reserveMl))),
};
const planner = plannerPolicy({ ...rules, stock: seasonStock(fleet.batches) });
const all: Record<string, ServicePolicy> = { planner, naive: naivePolicy, none: nonePolicy, 'site-staff': siteStaffPolicy };
const policies = opt('policies', 'planner,naive')
  .split(',')
  .map((name) => {
    const p = all[name];
    if (!p) throw new Error(`unknown policy ${name} (${Object.keys(all).join(', ')})`);
    return p;
  });

const scenarios = withScenarios
  ? seasonScenarios(
      seed,
      { units: fleet.units.map((u) => ({ serial: u.serial, site: u.site.id })), batches: ['SPF-S1', 'SPF-S2'] },
      { start, days },
      {
        outages: { count: 2, hours: 8 },
        flapping: { count: 3, days: 3, periodMinutes: 45, offShare: 0.4 },
        batteryFailures: { count: 5, capacity: 30 },
        recallAt: 0.5,
      },
    )
  : [];
const crews = defaultCrews(crewCount);
console.log(`RESULT season_crews=${crewCount}`);
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

console.log(
  `host: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}; ${await hostRate()}`,
);
console.log(
  `season: ${devices} units on ${new Set(fleet.units.map((u) => u.site.id)).size} sites, ${days} days from 2026-06-01, ${crewCount} crews, seed ${seed}${withScenarios ? `, ${scenarios.length} scenarios` : ''}`,
);
const reports: SeasonReport[] = [];
for (const policy of policies) {
  const r = await runSeason({ fleet, policy, crews, start, days, seed, scenarios });
  reports.push(r);
  console.log(
    `  ${r.policy.padEnd(10)} ${(r.elapsedMs / 1000).toFixed(1)} s: empty ${pct(r.emptyShare)} of ${r.pumpHours} pump-hours, ${r.km.toFixed(0)} km, ${r.visits} visits (${r.droppedVisits} dropped), ` +
      `${pct(r.earlyVisitShare)} to pumps over half full, ${pct(r.missedShare)} of ${r.customers} customers turned away, ${r.checkins} check-ins`,
  );
  const key = r.policy.replace(/[^a-z]/g, '_');
  if (r.policy === 'planner')
    console.log(
      `  planner rules: margin ${rules.marginDays} day(s), top-up ${rules.topUpDays} days, reserve ${rules.reserveMl} ml`,
    );
  console.log(
    `RESULT season_${key}_ms=${r.elapsedMs} empty=${r.emptyShare.toFixed(5)} km=${r.km.toFixed(0)} visits=${r.visits} early=${r.earlyVisitShare.toFixed(4)} missed=${r.missedShare.toFixed(5)}`,
  );
}
const customers = new Set(reports.map((r) => r.customers));
if (customers.size > 1) {
  console.error(`the policies saw different customers (${[...customers].join(', ')}): demand must not depend on the policy`);
  process.exitCode = 1;
}

/** The host, named by the rate of a bare /healthz on it (autocannon, 50 connections, 3 s), as the REST section names it. */
async function hostRate(): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const r = await autocannon({ url: `http://127.0.0.1:${port}/healthz`, connections: 50, duration: 3 });
  server.close();
  const rps = Math.round(r.requests.average);
  console.log(`RESULT season_host_healthz_rps=${rps}`);
  return `a bare /healthz answers ${rps.toLocaleString('en-US')} req/s (50 connections)`;
}
