/**
 * Two client builds compared on the signed-in map page by Lighthouse (tests/perf/lighthouse.ts), run in turn:
 * each build served by its own portal (tests/bench/rest-server.ts) on its own copy of one bench fleet, both up
 * before the first run, and the runs alternating A B B A A B ..., so a host whose state drifts over the minutes
 * (another process, a warm cache, a slower core) weighs on both alike. Run one build after the other and the
 * drift is read as a difference: on 2026-11-30 the same build scored 0.71 on its first run and 0.60 on its
 * fifth. Not a test: it measures.
 *
 *   npm run build && cp -r client/dist /tmp/dist-a      # the one build
 *   ... change the client, npm run build ...
 *   npx tsx tests/perf/lighthouse-ab.ts /tmp/dist-a client/dist --devices 100000 --runs 5
 *   ... --slow-host 4900       # beside a CPU load calibrated on the first portal's /healthz, as npm run bench
 *                              # -- --slow-host does (tests/bench/slow-host.ts); none on a host already that slow
 *
 * Prints each run (score, TBT, the page's own longest task) and each build's median run (median-run.ts).
 */
import autocannon from '../bench/lean-autocannon.ts';
import { startRestServer, type RestServerProcess } from '../bench/rest-server-process.ts';
import { calibratedLoad, calibrationLine, type CpuLoad } from '../bench/slow-host.ts';
import { medianRun } from './median-run.ts';
import { lighthouseRun, type LighthouseFigures } from './lighthouse.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const dists = argv.filter((arg, at) => !arg.startsWith('--') && !argv[at - 1]?.startsWith('--')).slice(0, 2);
if (dists.length !== 2) throw new Error('usage: lighthouse-ab.ts <client dist A> <client dist B> [--devices N] [--runs N]');
const devices = option('devices', 10_000);
const runs = option('runs', 5);
const slowHost = option('slow-host', 0);
const fleet = ['--devices', String(devices), '--sites', String(Math.max(1, Math.round(devices / 10))), '--days', '1'];

const portals: { dist: string; portal: RestServerProcess; token: string; figures: LighthouseFigures[] }[] = [];
let load: CpuLoad | null = null;
try {
  for (const dist of dists) {
    const portal = await startRestServer(fleet, { CLIENT_DIST: dist });
    const login = await fetch(`${portal.base}/auth/token/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
    });
    const { auth_token: token } = (await login.json()) as { auth_token: string };
    portals.push({ dist, portal, token, figures: [] });
  }
  // Both portals past their start (caches filled, start-up jobs done) before the first run.
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  if (slowHost) {
    const base = portals[0]!.portal.base;
    const calibrated = await calibratedLoad(
      async () => (await autocannon({ url: `${base}/healthz`, connections: 50, duration: 3, timeout: 30 })).requests.average,
      slowHost,
    );
    load = calibrated.load;
    // Every portal served the same /healthz round as the one calibrated last: a portal left out of it ran
    // colder under the load, its answers to the page came later, and Lighthouse's simulated load counted more
    // of the page's tasks as blocking (with the same build on both: TBT 0 on the calibrated portal, 300-1,600
    // ms on the other, runs in turn, 2026-11-30).
    for (const { portal } of portals.slice(1))
      await autocannon({ url: `${portal.base}/healthz`, connections: 50, duration: 3, timeout: 30 });
    console.log(calibrationLine(calibrated.calibration));
  }
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 ? [...portals].reverse() : portals) {
      const r = await lighthouseRun(`${side.portal.base}/`, side.token);
      side.figures.push(r);
      console.log(
        `${side.dist}: score ${r.score}, TBT ${Math.round(r.tbt)} ms, longest own task ${Math.round(r.longestOwnTask)} ms`,
      );
    }
  }
  console.log(`\nmap page, ${devices} devices, ${runs} runs each, in turn:`);
  for (const { dist, figures } of portals) {
    const m = medianRun(figures)!;
    console.log(
      `${dist}: median run score ${m.score}, TBT ${Math.round(m.tbt)} ms, longest own task ${Math.round(m.longestOwnTask)} ms`,
    );
  }
} finally {
  load?.stop();
  for (const { portal } of portals) await portal.stop();
}
