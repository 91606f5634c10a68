/**
 * Where the signed-in map page's main-thread time goes (issue 16: Lighthouse counts every task over
 * 50 ms). Starts the bench server on a fleet (tests/bench/rest-server.ts), opens the map page in Debian's
 * Chromium as Lighthouse's mobile run does (412x823 at pixel ratio 1.75, software WebGL), records a
 * Chrome trace with the V8 sampling profiler, and prints each long task of the renderer's main thread:
 * its kind (module evaluation, a map frame, a message from the map's worker), what it spent its time in,
 * and which script's functions ran in it; then the functions with the most self time across long tasks.
 *
 *   npx tsx tests/perf/map-trace.ts                  # 300 devices on PGlite, no CPU slowdown
 *   RATE=4 npx tsx tests/perf/map-trace.ts           # Lighthouse's CPU slowdown (4x)
 *   npx tsx tests/perf/map-trace.ts --devices 10000  # PostgreSQL at 127.0.0.1 (seeds the fleet the first time)
 *   DETAIL=1 RATE=4 npx tsx tests/perf/map-trace.ts  # also each task over 200 ms's functions by inclusive time
 *   DETAIL=100 RATE=4 ...                            # the same for each task over 100 ms
 *   EVENTS=1 RATE=4 ...                              # also each long task's trace events by name (the tasks
 *                                                    # no script ran in: a body read, a decode, a paint)
 *   CATEGORIES=blink,gpu EVENTS=1 RATE=4 ...         # with more trace categories, to name what such a task did
 *                                                    # (blink: a body's loading; gpu: a canvas read back)
 *   THREADS=1 RATE=4 ...                             # also what the other threads (the page's workers, the GPU
 *                                                    # process) ran while each long task did: a frame that waits
 *                                                    # on the GPU process waits behind whatever shares the cores
 * Build the client first (npm run build, or CLIENT_DIST=<dir>). Figures depend on the machine's load.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startRestServer } from '../bench/rest-server-process.ts';

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; name?: string };
};
type ProfileNode = {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const devicesArg = argv.includes('--devices') ? Number(argv[argv.indexOf('--devices') + 1]) : 300;
const rate = Number(process.env.RATE ?? 1);
const fleetArgs =
  devicesArg <= 300
    ? ['--pglite', '--devices', '300', '--sites', '30', '--days', '7']
    : ['--devices', String(devicesArg), '--sites', String(Math.max(1, Math.round(devicesArg / 10))), '--days', '1'];

const portal = await startRestServer(fleetArgs, { CLIENT_DIST: process.env.CLIENT_DIST ?? path.join(root, 'client/dist') });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--enable-unsafe-swiftshader',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
let events: TraceEvent[] = [];
try {
  const login = await fetch(`${portal.base}/auth/token/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
  });
  const token = ((await login.json()) as { auth_token: string }).auth_token;
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  await context.addCookies([{ name: 'userToken', value: token, url: portal.base }]);
  const page = await context.newPage();
  // THREADS: the map's own moments as trace time stamps (console.timeStamp), so a long frame can be told
  // apart: the pins' source getting data, its tiles loaded, each frame drawn, the map idle.
  if (process.env.THREADS)
    await page.addInitScript(() => {
      const w = window as unknown as {
        __fleetMapHook?: boolean;
        __fleetMap?: {
          on(type: string, listener: (e: { sourceId?: string; sourceDataType?: string; tile?: unknown }) => void): void;
          isSourceLoaded(id: string): boolean;
        };
      };
      w.__fleetMapHook = true;
      const hook = setInterval(() => {
        const map = w.__fleetMap;
        if (!map) return;
        clearInterval(hook);
        let frames = 0;
        map.on('render', () => console.timeStamp(`map frame ${++frames}`));
        map.on('idle', () => console.timeStamp('map idle'));
        map.on('sourcedataloading', (e) => e.sourceId === 'pins' && console.timeStamp('pins data sent to the worker'));
        map.on('sourcedata', (e) => {
          if (e.sourceId === 'pins' && e.sourceDataType === 'content') console.timeStamp('pins data in the worker');
          if (e.sourceId === 'pins' && e.tile) console.timeStamp(`pins tile ${map.isSourceLoaded('pins') ? '(the last)' : ''}`);
        });
      }, 5);
    });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-v8.cpu_profiler',
      'toplevel',
      'v8.execute',
      ...(process.env.CATEGORIES ?? '').split(',').filter(Boolean),
    ],
  });
  const answers: string[] = [];
  // The sizes as received, not the bodies: asking for a body through DevTools makes the renderer hand over
  // its copy of it on its main thread (the 7.47 MB pin feed: a task of about 1.1 s at rate 4, in the trace).
  if (process.env.EVENTS)
    page.on('requestfinished', async (request) => {
      const { responseBodySize } = await request.sizes().catch(() => ({ responseBodySize: 0 }));
      if (responseBodySize > 50_000)
        answers.push(`  ${(responseBodySize / 1e6).toFixed(2)} MB ${request.url().replace(portal.base, '')}`);
    });
  const opened = Date.now();
  await page.goto(`${portal.base}/`);
  await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 60_000 });
  console.log(`pins drawn ${Date.now() - opened} ms after the page was asked for (CPU rate ${rate})`);
  await page.waitForTimeout(3_000 * Math.max(1, rate));
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] } | TraceEvent[];
  events = Array.isArray(trace) ? trace : trace.traceEvents;
  if (answers.length) console.log(`answers over 50 kB (as received, compressed where they were):\n${answers.join('\n')}`);
} finally {
  await browser.close();
  await portal.stop();
}

// The renderer's main thread: the busiest CrRendererMain (about:blank has one too).
const busy = (pid: number, tid: number) =>
  events
    .filter((e) => e.pid === pid && e.tid === tid && e.name === 'RunTask' && e.ph === 'X')
    .reduce((sum, e) => sum + (e.dur ?? 0), 0);
const main = events
  .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  .sort((a, b) => busy(b.pid, b.tid) - busy(a.pid, a.tid))[0];
if (!main) throw new Error('no renderer main thread in the trace');
const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => a.ts - b.ts);
const t0 = tasks[0]!.ts;
const long = tasks.filter((t) => (t.dur ?? 0) > 50_000);
const ms = (us: number) => Math.round(us / 1000);

// The sampling profile of the main thread (its chunks carry the Profile event's id).
const profile = events.find((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid);
const nodes = new Map<number, ProfileNode>();
const samples: [node: number, ts: number][] = [];
let clock = Number((profile?.args?.data as { startTime?: number } | undefined)?.startTime ?? 0);
for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.pid === main.pid && e.id === profile?.id)) {
  const data = chunk.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
  for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
  (data.cpuProfile?.samples ?? []).forEach((sample, i) => {
    clock += data.timeDeltas?.[i] ?? 0;
    samples.push([sample, clock]);
  });
}
const scriptOf = (url: string | undefined) => (url ?? '').split('/').pop() || '(native)';
const inside = (t: TraceEvent, ts: number) => ts >= t.ts && ts <= t.ts + (t.dur ?? 0);

console.log(
  `map page, ${devicesArg} devices, CPU rate ${rate}: ${tasks.length} tasks, ${ms(busy(main.pid, main.tid))} ms busy, ${long.length} over 50 ms (${ms(long.reduce((s, t) => s + (t.dur ?? 0) - 50_000, 0))} ms over 50 in all)`,
);
/** Each other thread's busy time (its top-level tasks) inside a task's window, the busiest first, named by thread and process. */
const threadNames = new Map(
  events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, String(e.args?.name ?? e.tid)]),
);
const processNames = new Map(events.filter((e) => e.name === 'process_name').map((e) => [e.pid, String(e.args?.name ?? e.pid)]));
const topLevel = events.filter(
  (e) =>
    e.ph === 'X' &&
    (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') &&
    !(e.pid === main.pid && e.tid === main.tid),
);
const othersDuring = (task: TraceEvent) => {
  const [from, to] = [task.ts, task.ts + (task.dur ?? 0)];
  // Each thread's top-level tasks clipped to the window and merged: RunTask and ThreadControllerImpl::RunTask
  // nest, and summed apiece they counted a thread's time twice.
  const spans = new Map<string, [number, number][]>();
  for (const e of topLevel) {
    const [start, end] = [Math.max(from, e.ts), Math.min(to, e.ts + (e.dur ?? 0))];
    if (end <= start) continue;
    const key = `${threadNames.get(`${e.pid}:${e.tid}`) ?? e.tid} (${processNames.get(e.pid) ?? e.pid})`;
    spans.set(key, [...(spans.get(key) ?? []), [start, end]]);
  }
  const busyIn = new Map<string, number>();
  for (const [key, list] of spans) {
    let [total, reached] = [0, -Infinity];
    for (const [start, end] of list.sort((a, b) => a[0] - b[0])) {
      total += Math.max(0, end - Math.max(start, reached));
      reached = Math.max(reached, end);
    }
    busyIn.set(key, total);
  }
  // What the GPU process's main thread did then, by event (with CATEGORIES=gpu: compiling, linking, drawing, reading back).
  const gpuMain = [...threadNames].find(([, name]) => name === 'CrGpuMain')?.[0];
  const gpuEvents = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== gpuMain || e.name.endsWith('RunTask')) continue;
    const overlap = Math.min(to, e.ts + (e.dur ?? 0)) - Math.max(from, e.ts);
    if (overlap > 0) gpuEvents.set(e.name, (gpuEvents.get(e.name) ?? 0) + overlap);
  }
  const gpuTop = [...gpuEvents]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, us]) => `${k} ${ms(us)}`)
    .join(', ');
  return `${[...busyIn]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, us]) => `${k} ${ms(us)}`)
    .join(', ')}${gpuTop ? `\n      GPU process main thread: ${gpuTop}` : ''}`;
};
const selfByFunction = new Map<string, number>();
const detailOver = Number(process.env.DETAIL) > 1 ? Number(process.env.DETAIL) : 200;
const detail: string[] = [];
/** Long tasks in which the page's own scripts ran (the rest are the browser's). */
const ownTasks = new Set<TraceEvent>();
for (const task of long) {
  const inner = onMain.filter((e) => e.name !== 'RunTask' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0));
  const spent = new Map<string, number>();
  for (const e of inner)
    if (
      [
        'v8.evaluateModule',
        'Commit',
        'FireAnimationFrame',
        'HandlePostMessage',
        'FunctionCall',
        'MajorGC',
        'MinorGC',
        'Layout',
        'ParseHTML',
        'EvaluateScript',
      ].includes(e.name)
    )
      spent.set(e.name, (spent.get(e.name) ?? 0) + (e.dur ?? 0));
  const kind = spent.has('v8.evaluateModule')
    ? 'module evaluation'
    : spent.has('FireAnimationFrame') || spent.has('Commit')
      ? 'frame'
      : spent.has('HandlePostMessage')
        ? 'worker message'
        : 'other';
  if (process.env.EVENTS) {
    const named = new Map<string, number>();
    for (const e of inner) named.set(e.name, (named.get(e.name) ?? 0) + (e.dur ?? 0));
    const top = [...named].sort((a, b) => b[1] - a[1]).slice(0, 6);
    const urls = [...new Set(inner.map((e) => (e.args?.data as { url?: string } | undefined)?.url).filter(Boolean))].slice(0, 3);
    detail.push(
      `  events at ${ms(task.ts - t0)} ms: ${top.map(([name, us]) => `${name} ${ms(us)}`).join(', ')}${urls.length ? ` | ${urls.join(' ')}` : ''}`,
    );
  }
  const byScript = new Map<string, number>();
  for (let i = 0; i < samples.length - 1; i++) {
    const [id, ts] = samples[i]!;
    if (!inside(task, ts)) continue;
    const node = nodes.get(id);
    if (!node) continue;
    const dt = samples[i + 1]![1] - ts;
    byScript.set(scriptOf(node.callFrame.url), (byScript.get(scriptOf(node.callFrame.url)) ?? 0) + dt);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${scriptOf(node.callFrame.url)}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + dt);
  }
  if (process.env.DETAIL && (task.dur ?? 0) > detailOver * 1000) {
    // Inclusive time: each sample counts once for every distinct function on its stack.
    const inclusive = new Map<string, number>();
    for (let i = 0; i < samples.length - 1; i++) {
      const [id, ts] = samples[i]!;
      if (!inside(task, ts)) continue;
      const seen = new Set<string>();
      for (let node = nodes.get(id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
        if (!node.callFrame.url) continue;
        const fn = `${node.callFrame.functionName || '(anonymous)'} ${scriptOf(node.callFrame.url)}:${node.callFrame.lineNumber + 1}:${(node.callFrame.columnNumber ?? 0) + 1}`;
        if (!seen.has(fn)) inclusive.set(fn, (inclusive.get(fn) ?? 0) + samples[i + 1]![1] - ts);
        seen.add(fn);
      }
    }
    detail.push(
      `  task at ${ms(task.ts - t0)} ms: ${[...inclusive]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join('\n      ')}`,
    );
  }
  if (process.env.THREADS) {
    const stamps = onMain
      .filter((e) => e.name === 'TimeStamp' && inside(task, e.ts))
      .map((e) => String(e.args?.data?.message ?? ''));
    detail.push(
      `  threads at ${ms(task.ts - t0)} ms: ${othersDuring(task)}${stamps.length ? `\n      map: ${stamps.join(', ')}` : ''}`,
    );
  }
  if ([...byScript.keys()].some((script) => script !== '(native)')) ownTasks.add(task);
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(', ');
  console.log(
    `  at ${String(ms(task.ts - t0)).padStart(5)} ms  ${String(ms(task.dur ?? 0)).padStart(4)} ms  ${kind.padEnd(17)} ${top(spent, 3)} | scripts: ${top(byScript, 3)}`,
  );
}
if (process.env.THREADS)
  console.log(
    `the map's moments: ${events
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'TimeStamp')
      .map((e) => `${ms(e.ts - t0)} ${String(e.args?.data?.message ?? '')}`)
      .join(', ')}`,
  );
if (detail.length) console.log(`details (functions by inclusive time in ms, tasks over ${detailOver} ms):\n${detail.join('\n')}`);
console.log('self time in long tasks, by function (ms):');
for (const [fn, us] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${String(ms(us)).padStart(5)}  ${fn}`);
// The budget (issue 16) is Lighthouse's: no task over 200 ms under its 4x CPU slowdown (RATE=4 here), while
// the pins appear: the page's own tasks (its scripts ran in them). The browser's own start (navigation, the
// document's parse: no script of the page in it, 150-270 ms at rate 4 whatever the page) is printed beside.
const longest = Math.max(0, ...long.filter((t) => ownTasks.has(t)).map((t) => ms(t.dur ?? 0)));
const browsers = Math.max(0, ...long.filter((t) => !ownTasks.has(t)).map((t) => ms(t.dur ?? 0)));
console.log(
  `RESULT map page longest task ${longest} ms at CPU rate ${rate}, of the page's own (the browser's own start: ${browsers} ms) (budget: none over 200 ms at rate 4): ${rate < 4 ? 'diagnostic only at this rate' : longest <= 200 ? 'within budget' : 'OVER BUDGET'}`,
);
process.exitCode = rate >= 4 && longest > 200 ? 1 : 0;
