/**
 * Where the time from sign-in to the map's pins goes (issue 46: sign-in to pins drawn < 3 s at 100,000
 * devices). Starts the bench server on a fleet (tests/bench/rest-server.ts), signs in as list-open does
 * (desktop, the CPU not slowed, a fresh context each run), and prints each run's moments in milliseconds
 * after the Enter on the sign-in form: the requests over 50 kB (asked, first byte, last byte; the pin feed
 * is fetched by the page's body worker, so its timing comes from the network, not the page), the map's own
 * moments (its pins given to MapLibre's worker, parsed there, each tile of theirs, the first frame after),
 * the map container's states (reveal, hidden redraw, pin count), and the page's long tasks.
 *
 *   npx tsx tests/perf/pins-timeline.ts --devices 100000                   # PostgreSQL (seeds the first time)
 *   npx tsx tests/perf/pins-timeline.ts --devices 100000 --slow-host 4900  # beside the bench's calibrated load
 *   npx tsx tests/perf/pins-timeline.ts --devices 100000 --runs 3
 *
 * Build the client first (npm run build, or CLIENT_DIST=<dir>). Figures depend on the machine's load.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startRestServer } from '../bench/rest-server-process.ts';
import { calibratedLoad, calibrationLine, type CpuLoad } from '../bench/slow-host.ts';
import { PINS_SHOWN } from '../bench/list-open.ts';
import { CHROMIUM, CHROMIUM_ARGS, DESKTOP, PASSWORD } from '../e2e/browser.ts';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : fallback;
const devices = option('devices', 300);
const runs = option('runs', 3);
const slowHost = option('slow-host', 0);
const fleetArgs =
  devices <= 300
    ? ['--pglite', '--devices', '300', '--sites', '30', '--days', '7']
    : ['--devices', String(devices), '--sites', String(Math.max(1, Math.round(devices / 10))), '--days', '1'];

/** In the page, from its start: the map's moments and the container's states, in epoch ms (Date.now). */
const PROBE = `(() => {
  const log = (window.__pinsTimeline = []);
  const mark = (what) => log.push([Date.now(), what]);
  window.__fleetMapHook = true;
  // The page's body worker (shared/api/body-relay.ts) reads the pin feed: its head, first chunk and end.
  const NativeWorker = window.Worker;
  window.Worker = function (url, options) {
    const worker = new NativeWorker(url, options);
    const name = String(url).split('/').pop().split('?')[0];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message, transfer) => {
      if (message && typeof message.path === 'string') mark(name + ' asked ' + message.path);
      return post(message, transfer);
    };
    let chunks = 0, bytes = 0;
    worker.addEventListener('message', (e) => {
      const kind = e.data && e.data.kind;
      if (kind === 'chunk') { bytes += e.data.bytes.byteLength; if (chunks++ === 0) mark(name + ' first chunk'); }
      else if (kind === 'head' || kind === 'end' || kind === 'failed') mark(name + ' ' + kind + (kind === 'end' ? ' (' + (bytes / 1e6).toFixed(2) + ' MB in ' + chunks + ' chunks)' : ''));
      else if (!worker.__seen) { worker.__seen = true; mark(name + ' first answer'); }
    });
    return worker;
  };
  window.Worker.prototype = NativeWorker.prototype;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) log.push([performance.timeOrigin + e.startTime, 'long task ' + Math.round(e.duration) + ' ms']);
  }).observe({ type: 'longtask', buffered: true });
  const hook = setInterval(() => {
    const map = window.__fleetMap;
    if (!map) return;
    clearInterval(hook);
    mark('map made');
    let frames = 0, pinsSent = false;
    map.on('render', () => { if (pinsSent && frames++ < 3) mark('map frame'); });
    map.on('idle', () => mark('map idle'));
    map.on('sourcedataloading', (e) => { if (e.sourceId === 'pins' && !e.tile) { pinsSent = true; frames = 0; mark('pins given to the map'); } });
    map.on('sourcedata', (e) => {
      if (e.sourceId === 'pins' && e.sourceDataType === 'content') mark('pins parsed in the map worker');
      if (e.sourceId === 'pins' && e.tile && map.isSourceLoaded('pins')) mark('pins tiles loaded');
    });
    const box = map.getContainer();
    new MutationObserver(() => mark('container reveal=' + box.dataset.reveal + ' redraw=' + (box.dataset.redraw || '-') + ' pins=' + (box.dataset.pinCount || '-')))
      .observe(box, { attributes: true, attributeFilter: ['data-reveal', 'data-redraw', 'data-pin-count'] });
  }, 5);
})()`;

const portal = await startRestServer(fleetArgs, { CLIENT_DIST: process.env.CLIENT_DIST ?? path.join(root, 'client/dist') });
let load: CpuLoad | null = null;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  if (slowHost) {
    const calibrated = await calibratedLoad(
      async () =>
        (await autocannon({ url: `${portal.base}/healthz`, connections: 50, duration: 3, timeout: 30 })).requests.average,
      slowHost,
    );
    load = calibrated.load;
    console.log(calibrationLine(calibrated.calibration));
  }
  for (let run = 0; run < runs; run++) {
    // A quiet spell first, as a person signing in finds the portal: its 2 s caches expired.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: portal.base });
    await context.addInitScript(PROBE);
    const requests: [number, string][] = [];
    context.on('requestfinished', (request) => {
      void request.sizes().then(
        ({ responseBodySize }) => {
          if (responseBodySize < 50_000) return;
          const t = request.timing();
          const name = request.url().replace(portal.base, '');
          requests.push([t.startTime, `${name} asked (${(responseBodySize / 1e6).toFixed(2)} MB)`]);
          requests.push([t.startTime + t.responseStart, `${name} first byte`]);
          requests.push([t.startTime + t.responseEnd, `${name} last byte`]);
        },
        () => undefined,
      );
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email', { exact: true }).fill('distributor@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const entered = Date.now();
    await page.getByLabel('Password', { exact: true }).press('Enter');
    for (const until = entered + 120_000; !(await page.evaluate(PINS_SHOWN)); await page.waitForTimeout(50))
      if (Date.now() > until) throw new Error('the pins were not drawn within 120 s of the sign-in');
    const shown = Date.now();
    await page.waitForTimeout(1_000);
    const moments = [...((await page.evaluate('window.__pinsTimeline')) as [number, string][]), ...requests];
    moments.push([shown, 'SHOWN (as list-open reads it, every 50 ms)']);
    console.log(`\nrun ${run + 1}: sign-in to pins shown ${shown - entered} ms`);
    for (const [at, what] of moments.filter(([at]) => at >= entered - 50).sort((a, b) => a[0] - b[0]))
      console.log(`  ${String(Math.round(at - entered)).padStart(6)}  ${what}`);
    await context.close();
  }
} finally {
  load?.stop();
  await browser.close();
  await portal.stop();
}
