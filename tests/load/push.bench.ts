/**
 * Push server load benchmark (issue 5 numbers). Not a test: it measures and prints figures.
 *
 *   npm run bench:push                               # defaults, about 5-6 minutes
 *   npm run bench:push -- --seconds 20               # shorter windows (fan-in and latency)
 *   npm run bench:push -- --fanin 1,100,1000 --latency-sockets 1000 --capacity 5000 --batch 200
 *   npm run bench:push -- --only fanin,latency,capacity --capacity-backends pglite,postgres
 *   npm run bench:push -- --only latency --seconds 30 --profile /tmp/push-prof   # CPU profiles of the server
 *
 * The push server runs alone in a child process (tests/load/push-server.ts: the test harness app on
 * PGlite + startRealtime, real poll periods, 127.0.0.1 only), so its RSS and CPU are its own; this
 * process holds the socket.io-client sockets (websocket transport) and measures its own event-loop
 * delay and CPU to show whether the client side is the bottleneck.
 *
 * 1. Fan-in: 1, 100 and 1,000 authenticated sockets subscribed to one device panel (10 s period); the
 *    upstream GETs over --seconds each, from rt.counters.total('device') and as the device API saw them.
 * 2. Latency: 1,000 sockets on one device; the device checks in through the gateway every ~3 s with a
 *    new battery percent; per socket, check-in answer -> 'device:changed' carrying that value.
 * 3. Capacity: a fresh server process holding --capacity idle authenticated sockets: its RSS before and
 *    after (on PGlite, the one-command default, and on PostgreSQL when 127.0.0.1:5432 answers).
 */
import { execSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import { POLL_MS, type ClientToServerEvents, type ServerToClientEvents, type SubscribeAck } from '@fleet/shared';
import { postgresAvailable } from '../helpers/backends.ts';
import type { PushServerStats } from './push-server.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
/** pglite: in memory, created and seeded in the server process (as tests run it); pglite-files: on files
 * created and seeded by an earlier server process, then served by a new one (every `npm start` after the first). */
type Backend = 'pglite' | 'postgres' | 'pglite-files';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const argv = process.argv.slice(2);
const flag = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, fallback: number) => (flag(name) === undefined ? fallback : Number(flag(name)));
const list = (name: string, fallback: string) =>
  (flag(name) ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const seconds = num('seconds', 60);
const faninCounts = list('fanin', '1,100,1000').map(Number);
const latencySockets = num('latency-sockets', 1000);
const capacity = num('capacity', 5000);
const batch = num('batch', 200);
const changeEvery = num('change-every', 3000);
const SERIAL = flag('serial') ?? 'SP240002';
const only = new Set(list('only', 'fanin,latency,capacity'));
const profileDir = flag('profile'); // writes a V8 CPU profile of every server process there (node --cpu-prof)
const PERIOD = POLL_MS.device;
const EMAIL = 'distributor@demo.test';
const PASSWORD = 'Demo1234';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : `${Math.round(x)} ms`);
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;
const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);
const out: string[] = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};
const progress = (line: string) => process.stderr.write(`  · ${line}\n`);

// Bounded: whatever happens, the bench and its server processes stop by themselves.
const children = new Set<ChildProcess>();
const watchdogMs = (seconds * (faninCounts.length + 1) + 360) * 1000;
setTimeout(() => {
  console.error(`bench:push watchdog: still running after ${Math.round(watchdogMs / 1000)} s, stopping`);
  for (const c of children) c.kill();
  process.exit(2);
}, watchdogMs).unref();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill();
});

// ---------------------------------------------------------------- the server process

type Server = {
  backend: Backend;
  base: string;
  stats(): Promise<PushServerStats>;
  mark(): Promise<PushServerStats>;
  gc(): Promise<PushServerStats>;
  close(): Promise<void>;
};

async function startServer(backend: Backend, pgliteDir?: string): Promise<Server> {
  const dbArgs = backend === 'pglite-files' ? ['--backend', 'pglite', '--pglite-dir', pgliteDir ?? ''] : ['--backend', backend];
  const child = fork(
    path.join(here, 'push-server.ts'),
    [...dbArgs, '--max-minutes', String(Math.ceil(watchdogMs / 60_000) + 1)],
    {
      cwd: root,
      execArgv: [
        '--import',
        'tsx',
        '--expose-gc',
        ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : []),
      ],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  children.add(child);
  const waiting = new Map<number, (m: { stats?: PushServerStats }) => void>();
  let nextId = 0;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('push server did not start within 120 s')), 120_000);
    child.on('exit', (code) => reject(new Error(`push server exited with ${code}`)));
    child.on('message', (raw) => {
      const m = raw as { type: string; id?: number; port?: number; stats?: PushServerStats };
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.port!);
      } else if (m.id !== undefined) {
        waiting.get(m.id)?.(m);
        waiting.delete(m.id);
      }
    });
  });
  const ask = (type: 'stats' | 'mark' | 'gc' | 'close') =>
    new Promise<{ stats?: PushServerStats }>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => reject(new Error(`push server did not answer ${type}`)), 30_000);
      waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.send({ type, id });
    });
  return {
    backend,
    base: `http://127.0.0.1:${port}`,
    stats: async () => (await ask('stats')).stats!,
    mark: async () => (await ask('mark')).stats!,
    gc: async () => (await ask('gc')).stats!,
    async close() {
      await ask('close').catch(() => undefined);
      await new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      children.delete(child);
    },
  };
}

// ---------------------------------------------------------------- REST and gateway calls

async function login(base: string) {
  const res = await fetch(`${base}/auth/token/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const body = (await res.json()) as { auth_token?: string };
  if (!body.auth_token) throw new Error(`login answered ${res.status}: ${JSON.stringify(body)}`);
  return body.auth_token;
}

async function rotateSecret(base: string, token: string) {
  const res = await fetch(`${base}/api/v1/deviceSecret/${SERIAL}`, {
    method: 'POST',
    headers: { Authorization: `Token ${token}` },
  });
  const body = (await res.json()) as { secret?: string };
  if (!body.secret) throw new Error(`deviceSecret answered ${res.status}: ${JSON.stringify(body)}`);
  return body.secret;
}

async function deviceBattery(base: string, token: string) {
  const res = await fetch(`${base}/api/v1/device/${SERIAL}`, { headers: { Authorization: `Token ${token}` } });
  return Number(((await res.json()) as { battery_percent?: number }).battery_percent);
}

/** A real gateway check-in with a new battery percent; answers the time its answer arrived. */
async function checkin(base: string, secret: string, percent: number) {
  const now = new Date().toISOString();
  const res = await fetch(`${base}/device/v1/checkin`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      Authorization: `Basic ${Buffer.from(`${SERIAL}:${secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ sentAt: now, batteries: [{ at: now, volt: 3.9, percent }] }),
  });
  const answeredAt = Date.now();
  const text = await res.text();
  if (res.status !== 200) throw new Error(`check-in answered ${res.status}: ${text.slice(0, 200)}`);
  return answeredAt;
}

// ---------------------------------------------------------------- sockets

type Heard = { recv: number; at: number; battery: number | undefined };
type Watcher = { client: Client; heard: Heard[] };

function open(base: string, token: string): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    const client: Client = connect(base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 60_000,
    });
    const w: Watcher = { client, heard: [] };
    client.on('device:changed', (p) => {
      const b = p.patch.battery_percent;
      w.heard.push({ recv: Date.now(), at: Date.parse(p.at), battery: b === undefined || b === null ? undefined : Number(b) });
    });
    client.once('connect', () => resolve(w));
    client.once('connect_error', (err) => {
      client.close();
      reject(err);
    });
  });
}

function subscribe(w: Watcher) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe: no ack within 60 s')), 60_000);
    w.client.emit('subscribe', { topic: 'device', serial: SERIAL }, (ack: SubscribeAck) => {
      clearTimeout(timer);
      if (ack.ok) resolve();
      else reject(new Error(`subscribe refused: ${ack.error}`));
    });
  });
}

/** Opens n sockets in batches (each batch at once), subscribing each to the device panel if asked. */
async function openMany(base: string, token: string, n: number, withSubscribe: boolean) {
  const started = performance.now();
  const watchers: Watcher[] = [];
  const errors = new Map<string, number>();
  for (let i = 0; i < n; i += batch) {
    const results = await Promise.allSettled(
      Array.from({ length: Math.min(batch, n - i) }, async () => {
        const w = await open(base, token);
        if (withSubscribe) await subscribe(w);
        return w;
      }),
    );
    for (const r of results) {
      if (r.status === 'fulfilled') watchers.push(r.value);
      else errors.set(String((r.reason as Error).message), (errors.get(String((r.reason as Error).message)) ?? 0) + 1);
    }
    if (n >= 1000 && (i / batch) % 5 === 4) progress(`${watchers.length}/${n} sockets open`);
  }
  if (errors.size)
    say(`  ! ${n - watchers.length} of ${n} sockets failed: ${[...errors].map(([m, c]) => `${c}× ${m}`).join('; ')}`);
  return { watchers, ms: performance.now() - started };
}

async function closeAll(server: Server, watchers: Watcher[]) {
  for (const w of watchers) w.client.close();
  const until = Date.now() + 30_000;
  while (Date.now() < until && (await server.stats()).sockets > 0) await sleep(200);
}

/** This process: event-loop delay and CPU since the last mark (is the load generator the bottleneck?). */
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();
let cpuMark = process.cpuUsage();
let wallMark = performance.now();
function markSelf() {
  eld.reset();
  cpuMark = process.cpuUsage();
  wallMark = performance.now();
}
function selfStats() {
  const cpu = process.cpuUsage(cpuMark);
  return {
    cpuPercent: ((cpu.user + cpu.system) / 1000 / (performance.now() - wallMark)) * 100,
    p99: eld.percentile(99) / 1e6,
    max: eld.max / 1e6,
  };
}

// ---------------------------------------------------------------- 1. fan-in

type FaninRow = {
  n: number;
  connectMs: number;
  httpPolls: number;
  counterPolls: number;
  perMinute: number;
  meanInterval: number;
  events: number;
  server: PushServerStats;
  self: ReturnType<typeof selfStats>;
};

const upstreamOf = (s: PushServerStats) => s.upstream.filter((u) => u.serial === SERIAL);
/** Waits until no device GET is in flight (the counter, which counts answered GETs, equals the GETs the API saw). */
async function quiescent(server: Server) {
  for (let i = 0; i < 600; i++) {
    const s = await server.stats();
    if (s.pollsDevice === s.upstream.length) return s;
    await sleep(20);
  }
  throw new Error('a device poll stayed in flight for 12 s');
}

async function fanin(server: Server, token: string, n: number, keepOpen: boolean) {
  const { watchers, ms: connectMs } = await openMany(server.base, token, n, true);
  // Align the window on the panel's next poll after every socket is subscribed, so each count covers the
  // same phase of the 10 s cycle: [that poll - 100 ms, + --seconds).
  const q = await quiescent(server);
  let start: PushServerStats['upstream'][number] | undefined;
  for (let i = 0; i < (PERIOD + 5000) / 50 && !start; i++) {
    await sleep(50);
    start = (await server.stats()).upstream[q.upstream.length];
  }
  if (!start) throw new Error(`no device poll within ${PERIOD + 5000} ms of ${n} subscriptions`);
  const from = start.at - 100;
  const to = from + seconds * 1000;
  for (const w of watchers) w.heard.length = 0;
  await server.mark();
  markSelf();
  progress(`fan-in ${n} socket${n > 1 ? 's' : ''}: counting upstream GETs for ${seconds} s`);
  await sleep(to - Date.now());
  const self = selfStats();
  const end = await quiescent(server);
  const inWindow = upstreamOf(end).filter((u) => u.at >= from && u.at < to);
  const after = end.upstream.filter((u) => u.at >= to).length;
  const counterPolls = end.pollsDevice - q.pollsDevice - after;
  const intervals = inWindow.slice(1).map((u, i) => u.at - inWindow[i]!.at);
  const meanInterval = intervals.length ? intervals.reduce((a, b) => a + b, 0) / intervals.length : NaN;
  const row: FaninRow = {
    n,
    connectMs,
    httpPolls: inWindow.length,
    counterPolls,
    perMinute: (counterPolls * 60) / seconds,
    meanInterval,
    events: watchers.reduce((a, w) => a + w.heard.length, 0),
    server: end,
    self,
  };
  if (!keepOpen) await closeAll(server, watchers);
  return { row, watchers: keepOpen ? watchers : [] };
}

// ---------------------------------------------------------------- 2. latency

async function latency(server: Server, token: string, secret: string, watchers: Watcher[]) {
  const current = await deviceBattery(server.base, token);
  let value = 10;
  const nextValue = () => {
    do value = value >= 99 ? 1 : value + 1;
    while (value === current);
    return value;
  };
  // The panel already holds its snapshot (the sockets subscribed at least one poll ago); start clean.
  await sleep(500);
  for (const w of watchers) w.heard.length = 0;
  await server.mark();
  markSelf();
  const changes: { value: number; t: number }[] = [];
  const until = Date.now() + seconds * 1000;
  progress(`latency: ${watchers.length} sockets, a check-in every ~${changeEvery / 1000} s for ${seconds} s`);
  while (Date.now() < until) {
    const v = nextValue();
    changes.push({ value: v, t: await checkin(server.base, secret, v) });
    await sleep(changeEvery * (0.8 + Math.random() * 0.4)); // ~3 s, jittered so the changes sample every phase of the poll
  }
  // The last change waits for its poll, then for delivery (to every socket, or at most period + 2 s).
  const last = changes.at(-1)!;
  const deadline = Date.now() + PERIOD + 2000;
  while (
    Date.now() < deadline &&
    !watchers.every((w) => w.heard.some((e) => e.battery === last.value && e.recv >= last.t - 1000))
  )
    await sleep(100);
  await sleep(500);
  const self = selfStats();
  const s = await server.stats();
  const polls = upstreamOf(s);

  const exact: number[] = [];
  const fresh: number[] = [];
  const afterPollStart: number[] = [];
  const afterAt: number[] = [];
  const waits: number[] = [];
  const spreads: number[] = [];
  const broadcasts: number[] = [];
  let delivered = 0;
  let superseded = 0;
  let lost = 0;
  let neverFresh = 0;
  changes.forEach((c, i) => {
    const later = new Set(changes.slice(i).map((x) => x.value));
    const got: Heard[] = [];
    for (const w of watchers) {
      const h = w.heard.find((e) => e.battery === c.value && e.recv >= c.t - 1000 && e.at >= c.t - 1000);
      if (h) got.push(h);
      const f = w.heard.find(
        (e) => e.battery !== undefined && later.has(e.battery) && e.recv >= c.t - 1000 && e.at >= c.t - 1000,
      );
      if (f) fresh.push(f.recv - c.t);
      else neverFresh++;
    }
    if (!got.length) {
      superseded++;
      return;
    }
    delivered++;
    lost += watchers.length - got.length;
    const at = got[0]!.at;
    // The poll that found it: the last device GET the API saw before the emission's `at`.
    const poll = polls.filter((p) => p.at <= at).at(-1);
    if (poll) waits.push(poll.at - c.t);
    let first = Infinity;
    let last = -Infinity;
    for (const h of got) {
      exact.push(h.recv - c.t);
      afterAt.push(h.recv - h.at);
      if (poll) afterPollStart.push(h.recv - poll.at);
      first = Math.min(first, h.recv);
      last = Math.max(last, h.recv);
    }
    spreads.push(last - first);
    const b = s.emits.find(
      (e) => e.event === 'device:changed' && e.room === `device:${SERIAL}` && e.at >= at && e.at - at < 1000,
    );
    if (b) broadcasts.push(b.ms);
  });
  return {
    changes: changes.length,
    delivered,
    superseded,
    lost,
    neverFresh,
    exact,
    fresh,
    afterPollStart,
    afterAt,
    waits,
    spreads,
    broadcasts,
    server: s,
    self,
  };
}

// ---------------------------------------------------------------- 3. capacity

async function capacityRun(backend: Backend) {
  let pgliteDir: string | undefined;
  if (backend === 'pglite-files') {
    pgliteDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'push-bench-')), 'pgdata');
    progress(`capacity (${backend}): a first server process creates and seeds ${pgliteDir}, then stops`);
    await (await startServer(backend, pgliteDir)).close();
  }
  progress(`capacity (${backend}): starting a fresh server process`);
  const server = await startServer(backend, pgliteDir);
  const token = await login(server.base);
  await sleep(2000);
  const before = await server.gc();
  progress(`capacity (${backend}): opening ${capacity} idle authenticated sockets in batches of ${batch}`);
  const selfBefore = process.memoryUsage().rss;
  const { watchers, ms: connectMs } = await openMany(server.base, token, capacity, false);
  await sleep(3000);
  const after = await server.stats();
  const afterGc = await server.gc();
  const selfAfter = process.memoryUsage().rss;
  await closeAll(server, watchers);
  await server.close();
  if (pgliteDir) fs.rmSync(path.dirname(pgliteDir), { recursive: true, force: true });
  return { backend, before, after, afterGc, connectMs, open: watchers.length, selfBefore, selfAfter };
}

// ---------------------------------------------------------------- run

const fdLimit = (() => {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  } catch {
    return NaN;
  }
})();
const pgUp = await postgresAvailable().catch(() => false);
const capacityBackends = list('capacity-backends', pgUp ? 'pglite,pglite-files,postgres' : 'pglite,pglite-files').filter(
  (b): b is Backend => b === 'pglite' || b === 'pglite-files' || (b === 'postgres' && pgUp),
);
const need = Math.max(capacity, latencySockets, ...faninCounts) + 200;
say(
  `push server load bench: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ulimit -n ${fdLimit} (this process needs ~${need} descriptors; the server child the same)`,
);
if (fdLimit < need)
  say(
    `  ! ulimit -n ${fdLimit} is below ${need}: raise it (ulimit -n ${need * 2}) or lower --capacity; sockets beyond it will fail with EMFILE`,
  );
say(
  `device panel ${SERIAL}, real period ${PERIOD} ms (POLL_MS.device), websocket transport, one server process on 127.0.0.1, window ${seconds} s`,
);

const started = Date.now();
let server: Server | undefined;
try {
  if (only.has('fanin') || only.has('latency')) {
    progress('starting the push server process (harness app on PGlite, demo fleet)');
    server = await startServer('pglite');
    const token = await login(server.base);
    const secret = await rotateSecret(server.base, token);
    const rows: FaninRow[] = [];
    let kept: Watcher[] = [];
    if (only.has('fanin')) {
      for (const n of faninCounts) {
        const keep = only.has('latency') && n === latencySockets;
        const r = await fanin(server, token, n, keep);
        rows.push(r.row);
        if (keep) kept = r.watchers;
      }
      say();
      say(`1. FAN-IN: upstream GET /api/v1/device/${SERIAL} per ${seconds} s window (window starts 100 ms before a poll)`);
      say(
        `   sockets  connect+subscribe  GETs rt.counters  GETs seen by API  polls/min  mean interval  events pushed  server CPU  server loop p99  client CPU  client loop p99/max`,
      );
      for (const r of rows) {
        say(
          `   ${String(r.n).padStart(7)}  ${ms(r.connectMs).padStart(17)}  ${String(r.counterPolls).padStart(16)}  ${String(r.httpPolls).padStart(16)}  ${r.perMinute.toFixed(2).padStart(9)}  ${ms(r.meanInterval).padStart(13)}  ${String(r.events).padStart(13)}  ${`${r.server.cpuPercent.toFixed(1)}%`.padStart(10)}  ${ms(r.server.eventLoop.p99).padStart(15)}  ${`${r.self.cpuPercent.toFixed(1)}%`.padStart(10)}  ${`${ms(r.self.p99)}/${ms(r.self.max)}`.padStart(19)}`,
        );
      }
      const one = rows.find((r) => r.n === 1);
      const thousand = rows.find((r) => r.n === 1000) ?? rows.at(-1);
      if (one && thousand && thousand !== one) {
        const ratio = thousand.counterPolls / one.counterPolls;
        const rateRatio = one.meanInterval / thousand.meanInterval;
        say(
          `   ratio ${thousand.n}:1 = ${thousand.counterPolls}/${one.counterPolls} = ${ratio.toFixed(3)} (by mean interval ${rateRatio.toFixed(3)})  budget ≤ 1.05: ${ratio <= 1.05 ? 'within budget' : 'OVER BUDGET'}`,
        );
      }
      for (const r of rows) {
        const expected = 60_000 / PERIOD;
        const byInterval = 60_000 / r.meanInterval;
        say(
          `   ${String(r.n).padStart(5)} socket(s): ${r.perMinute.toFixed(2)} polls/min counted in the window, ${byInterval.toFixed(2)} by mean interval; budget ${expected}/min for a ${PERIOD / 1000} s panel (±5%, by interval): ${Math.abs(byInterval - expected) <= expected * 0.05 ? 'within budget' : 'OFF BUDGET'}`,
        );
      }
    }
    if (only.has('latency') && latencySockets > 0) {
      if (kept.length !== latencySockets) {
        progress(`latency: opening ${latencySockets} sockets`);
        kept = (await openMany(server.base, token, latencySockets, true)).watchers;
        await sleep(PERIOD + 1000); // the first poll takes the snapshot changes are diffed against
      }
      const l = await latency(server, token, secret, kept);
      await closeAll(server, kept);
      const row = (label: string, xs: number[]) => {
        const s = sortNum(xs);
        return `   ${label.padEnd(52)} ${String(xs.length).padStart(7)} ${ms(pct(s, 50)).padStart(9)} ${ms(pct(s, 99)).padStart(9)} ${ms(s.length ? s[s.length - 1] : NaN).padStart(9)}`;
      };
      say();
      say(
        `2. LATENCY: ${kept.length} sockets on ${SERIAL}, ${l.changes} gateway check-ins (battery percent, every ~${changeEvery / 1000} s ±20%) over ${seconds} s`,
      );
      say(
        `   ${l.delivered} values pushed, ${l.superseded} superseded by a later check-in before the next poll (never pushed, by design), ${l.lost} deliveries of pushed values missing, ${l.neverFresh} socket×check-in never saw a value as new`,
      );
      say(`   ${'measure'.padEnd(52)} ${'samples'.padStart(7)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}`);
      say(row('check-in answer → socket, pushed values', l.exact));
      say(row('check-in answer → socket, every check-in (as new)', l.fresh));
      say(row('  of which: wait for the next poll (per pushed value)', l.waits));
      say(row('poll start (API saw the GET) → socket', l.afterPollStart));
      say(row('poll found it (payload `at`) → socket', l.afterAt));
      say(row('fan-out spread, first → last socket per push', l.spreads));
      say(row(`server broadcast to ${kept.length} sockets (sync: encode + writes)`, l.broadcasts));
      const p99 = pct(sortNum(l.exact), 99);
      const p99fresh = pct(sortNum(l.fresh), 99);
      const p99after = pct(sortNum(l.afterPollStart), 99);
      say(
        `   budget poll period + 300 ms = ${PERIOD + 300} ms p99: pushed values p99 ${ms(p99)} (${p99 <= PERIOD + 300 ? 'within' : 'OVER'}), every check-in p99 ${ms(p99fresh)} (${p99fresh <= PERIOD + 300 ? 'within' : 'OVER'})`,
      );
      say(
        `   p99 − period: ${ms(p99 - PERIOD)} / ${ms(p99fresh - PERIOD)}; p99 after the wait to the next poll (poll start → socket): ${ms(p99after)} vs 300 ms: ${p99after <= 300 ? 'within budget' : 'OVER BUDGET'}; payload at → socket p99 ${ms(pct(sortNum(l.afterAt), 99))}`,
      );
      say(
        `   server: CPU ${l.server.cpuPercent.toFixed(1)}% of a core, loop p99 ${ms(l.server.eventLoop.p99)} max ${ms(l.server.eventLoop.max)}; client (this process): CPU ${l.self.cpuPercent.toFixed(1)}%, loop p99 ${ms(l.self.p99)} max ${ms(l.self.max)}`,
      );
    }
    await server.close();
    server = undefined;
  }
  if (only.has('capacity') && capacity > 0) {
    // One after the other: each its own fresh process, measured alone.
    const results = [];
    for (const b of capacityBackends) results.push(await capacityRun(b).catch((e: Error) => e));
    say();
    say(`3. CAPACITY: ${capacity} idle authenticated sockets (websocket, batches of ${batch}) on one fresh server process`);
    // Δ held/socket: heap used + external after a full collection, before and after the sockets (the
    // steadier figure: RSS keeps the pages a collection freed, and sockets opened into them do not move it;
    // two of four full runs read Δ RSS/socket 0.5 and 0.1 kB that way).
    say(
      `   backend       connect      RSS before  RSS after  after GC  Δ RSS/socket  Δ held/socket  heap before→after  external before→after  sockets  budget < 500 MB`,
    );
    for (const r of results) {
      if (r instanceof Error) {
        say(`   failed: ${r.message}`);
        continue;
      }
      const delta = r.after.rss - r.before.rss;
      const held = r.afterGc.heapUsed + r.afterGc.external - (r.before.heapUsed + r.before.external);
      say(
        `   ${r.backend.padEnd(12)}  ${`${(r.connectMs / 1000).toFixed(1)} s`.padStart(7)}  ${mb(r.before.rss).padStart(12)}  ${mb(r.after.rss).padStart(9)}  ${mb(r.afterGc.rss).padStart(8)}  ${`${(delta / 1024 / r.open).toFixed(1)} kB`.padStart(12)}  ${`${(held / 1024 / r.open).toFixed(1)} kB`.padStart(13)}  ${`${mb(r.before.heapUsed)}→${mb(r.after.heapUsed)}`.padStart(17)}  ${`${mb(r.before.external)}→${mb(r.after.external)}`.padStart(21)}  ${String(r.after.sockets).padStart(7)}  ${r.after.rss < 500 * 1024 * 1024 ? 'within budget' : 'OVER BUDGET'}`,
      );
      say(`             this (client) process RSS ${mb(r.selfBefore)} → ${mb(r.selfAfter)}`);
    }
  }
} finally {
  await server?.close().catch(() => undefined);
}
say();
say(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
