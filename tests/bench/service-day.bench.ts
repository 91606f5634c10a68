/**
 * The service day's solver (issue 48), measured, not tested:
 * - quality: 50 seeded one-crew instances of 3 to 9 stops, the solver's driving time beside the exact
 *   optimum (brute force over every order); targets: mean within 3 %, worst within 8 %;
 * - time: planning 1,000 due sites (1 to 3 devices each, due rules, travel matrix, solver, batch picks)
 *   with 10 crews on the built-in great-circle source; target under 5 s. Most sites do not fit in 10
 *   working days and are listed as unplanned: that listing is part of the time.
 *
 *   npx tsx tests/bench/service-day.bench.ts [--instances 50] [--sites 1000] [--crews 10] [--runs 3]
 *
 * Prints RESULT lines for tests/bench/run-all.ts. Exit code 1 when a target is missed.
 */
import os from 'node:os';
import {
  bruteForceOrder,
  greatCircleMatrix,
  greatCircleSource,
  HOURS_PER_WEEK,
  planServiceDay,
  solveRoutes,
  type DueDevice,
  type PlanCrewInput,
  type PlanSite,
  type StockBatch,
} from '@fleet/shared';
import { seededRandom as mulberry32 } from '../../workers/src/simulator/device-model.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const instances = opt('instances', 50);
const siteCount = opt('sites', 1000);
const crewCount = opt('crews', 10);
const runs = opt('runs', 3);

console.log(
  `service-day bench: ${os.cpus().length} cores (${os.cpus()[0]?.model}), node ${process.version}, ${new Date().toISOString()}`,
);

// ---------------------------------------------------------------- quality against brute force
const ratios: number[] = [];
let bruteMs = 0;
let solverMs = 0;
for (let seed = 1; seed <= instances; seed++) {
  const rnd = mulberry32(seed);
  const n = 3 + Math.floor(rnd() * 7); // 3..9 stops
  // Sites within ~40 km of the depot, as a county's round.
  const pts = Array.from({ length: n + 1 }, () => ({ lat: 29.8 + rnd() * 0.4, lng: -90.3 + rnd() * 0.4 }));
  const m = greatCircleMatrix(pts);
  const sec = (a: number, b: number) => m.seconds[a]![b]!;
  const nodes = pts.slice(1).map((_, i) => i + 1);
  let t = performance.now();
  const res = solveRoutes({
    crews: [{ node: 0, availableSec: 24 * 3600, capacityLitres: 1e6, capacityBatteries: 1e6 }],
    stops: nodes.map((node) => ({ node, serviceSec: 900, litres: 1, batteries: 0, tier: 0 })),
    seconds: sec,
  });
  solverMs += performance.now() - t;
  t = performance.now();
  const best = bruteForceOrder(0, nodes, sec);
  bruteMs += performance.now() - t;
  if (res.routes[0]!.stops.length !== n) throw new Error(`instance ${seed}: the solver left stops out`);
  ratios.push(res.routes[0]!.driveSec / best.cost - 1);
}
const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
const worst = Math.max(...ratios);
const atOptimum = ratios.filter((r) => r < 1e-9).length;
console.log(
  `quality: ${instances} one-crew instances of 3-9 stops: mean ${(mean * 100).toFixed(2)} % over the optimum, worst ${(worst * 100).toFixed(2)} %, ${atOptimum} at the optimum; solver ${solverMs.toFixed(0)} ms in all, brute force ${bruteMs.toFixed(0)} ms`,
);
console.log(
  `RESULT service_quality_mean_pct=${(mean * 100).toFixed(3)} worst_pct=${(worst * 100).toFixed(3)} optimal=${atOptimum}/${instances}`,
);

// ---------------------------------------------------------------- 1,000 due sites, 10 crews
const rnd = mulberry32(4242);
const TZ = 'America/Chicago';
const sites: PlanSite[] = Array.from({ length: siteCount }, (_, i) => ({
  id: i + 1,
  name: `Site ${i + 1}`,
  address: `${i + 1} Bench Rd`,
  lat: 29.5 + rnd() * 1.5,
  lng: -91.5 + rnd() * 2,
  timeZone: TZ,
}));
const rate = new Array<number>(HOURS_PER_WEEK).fill(12);
const devices: DueDevice[] = sites.flatMap((s) =>
  Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, k): DueDevice => ({
    serial: `B${String(s.id).padStart(4, '0')}-${k}`,
    siteId: s.id,
    timeZone: TZ,
    brandId: 1 + (s.id % 3),
    brandName: `Brand ${1 + (s.id % 3)}`,
    pumps: [
      // The first device of each site is due (runs dry within a day); the others may be topped up.
      {
        pump: 1,
        fluid: 'Sunscreen',
        remainingMl: k === 0 ? rnd() * 300 : 300 + rnd() * 1200,
        reservoirMl: 1500,
        rate,
        batch: null,
      },
      { pump: 2, fluid: 'Sanitizer', remainingMl: 400 + rnd() * 1100, reservoirMl: 1500, rate, batch: null },
    ],
    battery: { kind: 'none', why: 'flat-or-rising', slopePerDay: 0 },
    warnings: [],
    isMaintenance: false,
  })),
);
const crews: PlanCrewInput[] = Array.from({ length: crewCount }, (_, i) => ({
  id: i + 1,
  name: `Crew ${i + 1}`,
  depot: { address: `Depot ${i + 1}`, lat: 29.6 + (i % 5) * 0.3, lng: -91.3 + Math.floor(i / 5) * 1.6 },
  timeZone: TZ,
  startTime: '08:00',
  endTime: '17:00',
  capacityLitres: 60,
  capacityBatteries: 10,
}));
const stock: StockBatch[] = [1, 2, 3].flatMap((brand) =>
  (['Sunscreen', 'Sanitizer'] as const).flatMap((fluid, f) =>
    [0, 1, 2].map((k) => ({
      batchNo: `BR${brand}-${fluid.slice(0, 3)}-${k}`,
      fluid,
      brandIds: [brand],
      expireDate: `2027-0${1 + k + f}-15`,
      remainLitres: 80,
      recalled: false,
    })),
  ),
);
const times: number[] = [];
const cpu: number[] = [];
let last: Awaited<ReturnType<typeof planServiceDay>> | null = null;
for (let r = 0; r < runs; r++) {
  const t = performance.now();
  const c = process.cpuUsage();
  last = await planServiceDay({
    date: '2026-11-29',
    now: Date.parse('2026-11-28T18:00:00Z'),
    crews,
    sites,
    devices,
    stock,
    travel: greatCircleSource(),
  });
  times.push(performance.now() - t);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
}
const planned = last!.crews.reduce((a, c) => a + c.stops.length, 0);
const unplannedSites = new Set(last!.unplanned.map((u) => u.site.id)).size;
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const median = med(times);
console.log(
  `time: ${siteCount} due sites (${devices.length} devices), ${crewCount} crews: median ${median.toFixed(0)} ms of ${runs} runs (${times.map((t) => t.toFixed(0)).join(', ')}; CPU ${med(cpu).toFixed(0)} ms: the host is shared, wall time includes waiting for a core); ${planned} sites planned, ${unplannedSites} unplanned with a reason, ${last!.crews.reduce((a, c) => a + c.totals.km, 0).toFixed(0)} km`,
);
console.log(
  `RESULT service_plan_ms=${median.toFixed(0)} cpu_ms=${med(cpu).toFixed(0)} planned=${planned} unplanned=${unplannedSites}`,
);

const missed = [mean > 0.03 && 'mean over 3 %', worst > 0.08 && 'worst over 8 %', median > 5000 && 'planning over 5 s'].filter(
  Boolean,
);
if (missed.length) {
  console.log(`targets missed: ${missed.join(', ')}`);
  process.exitCode = 1;
} else console.log('targets met: mean within 3 %, worst within 8 %, 1,000 sites in under 5 s');
