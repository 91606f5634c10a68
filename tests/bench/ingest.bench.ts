/**
 * Ingestion benchmark (issue budgets: >= 10,000 data points/s stored on PostgreSQL; check-in p99 < 100 ms
 * at 200 check-ins/s).
 *
 *   npm run bench:ingest                                  # PostgreSQL (database fleet_ingest, recreated), then PGlite
 *   npm run bench:ingest -- --only postgres --devices 2000 --seconds 60 --speed 3600
 *   npm run bench:ingest -- --only pglite --seconds 20
 *
 * Per backend: a fresh demo seed without history (1 day), N simulated devices provisioned and placed on
 * generated sites (10 per site) directly in the database, secrets rotated through the gateway service,
 * the portal in this process on a free port, then:
 *   (a) sustained ingestion: the fleet simulator (in a child process, so it does not share the server's
 *       event loop) drives every device over HTTP at high speed for --seconds; data points stored/s are
 *       counted in pump_events, battery_readings, level_readings, data_usage and sms_log before/after,
 *       and the server process RSS is sampled every 5 s;
 *   (b) check-in latency at a fixed, open-loop rate (--rate, default 200/s for --latency-seconds, 30 s):
 *       sends are scheduled at the rate whatever the answers, each a small realistic batch (about 30
 *       simulated minutes of one device); latency counts from the scheduled send time;
 *   (c) the same number of rows as (a) stored, inserted raw: multi-row INSERT ... VALUES in batches of
 *       500, for comparison.
 * Also measured: CPU of the server process, the load process and PostgreSQL, and SQL statements per
 * check-in (PostgreSQL). Not a test: it measures and prints a table. Everything runs on 127.0.0.1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';

const HERE = fileURLToPath(import.meta.url);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const argStr = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

type Fleet = { serial: string; secret: string; leftPumpType: 'Sunscreen'; rightPumpType: 'Sanitizer' | 'Unspecified' }[];
type ChildJob =
  | { kind: 'sustain'; baseUrl: string; fleet: Fleet; speed: number; seconds: number; concurrency: number; simStart: number }
  | {
      kind: 'rate';
      baseUrl: string;
      fleet: Fleet;
      rate: number;
      seconds: number;
      speed: number;
      simStart: number;
      maxOutstanding: number;
    };
type Tick = { kind: 'tick'; checkins: number; stored: number; failures: number; rejected: number; p50: number; p99: number };
type Done = {
  kind: 'done';
  cpuMs: number;
  rssMax: number;
  result: Record<string, number>;
  timeline?: [number, number][];
  errorStatuses?: Record<string, number>;
};

if (process.argv.includes('--child')) await child();
else await parent();

// ============================================================ the load (child process)

async function child() {
  const job = JSON.parse(fs.readFileSync(argStr('child')!, 'utf8')) as ChildJob;
  const send = (m: object) => process.send!(m);
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    send({ kind: 'ready' });
  });
  const cpu0 = process.cpuUsage();
  let rssMax = 0;
  const rssTimer = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 1000);
  const { timeline, errorStatuses, ...result } =
    job.kind === 'sustain'
      ? { ...(await sustain(job, send)), timeline: undefined, errorStatuses: undefined }
      : await openLoop(job);
  clearInterval(rssTimer);
  const cpu = process.cpuUsage(cpu0);
  // Exits once the message is handed to the parent: it carries every check-in's latency (hundreds of kB),
  // which an exit right after send() could cut off.
  process.send!(
    { kind: 'done', cpuMs: (cpu.user + cpu.system) / 1000, rssMax, result, timeline, errorStatuses } satisfies Done,
    () => process.exit(0),
  );
}

async function sustain(job: Extract<ChildJob, { kind: 'sustain' }>, send: (m: object) => void) {
  const { startSimulator } = await import('../../workers/src/simulator/simulator.ts');
  const sim = startSimulator({
    baseUrl: job.baseUrl,
    devices: job.fleet,
    speed: job.speed,
    maxInFlight: job.concurrency,
    simStart: job.simStart,
    log: (m) => console.error(`  [sim] ${m}`),
  });
  const t0 = Date.now();
  let all = { checkins: 0, stored: 0, sent: 0, failures: 0, rejected: 0, lat: [] as number[] };
  const timer = setInterval(() => {
    const s = sim.stats();
    all = { ...all, checkins: s.checkins, stored: s.stored, sent: s.sent, failures: s.failures, rejected: s.rejected };
    all.lat.push(s.latency.p99);
    send({
      kind: 'tick',
      checkins: s.checkins,
      stored: s.stored,
      failures: s.failures,
      rejected: s.rejected,
      p50: s.latency.p50,
      p99: s.latency.p99,
    } satisfies Tick);
  }, 5_000);
  await new Promise((r) => setTimeout(r, job.seconds * 1000));
  clearInterval(timer);
  await sim.stop();
  const s = sim.stats();
  const secs = (Date.now() - t0) / 1000;
  return {
    seconds: secs,
    checkins: s.checkins,
    stored: s.stored,
    sent: s.sent,
    duplicates: s.duplicates,
    failures: s.failures,
    rejected: s.rejected,
    unauthorized: s.unauthorized,
    offline: s.offline,
  };
}

async function openLoop(job: Extract<ChildJob, { kind: 'rate' }>) {
  const model = await import('../../workers/src/simulator/device-model.ts');
  const random = model.seededRandom(7);
  const realStart = Date.now();
  const devices = job.fleet.map((f) => ({
    auth: `Basic ${Buffer.from(`${f.serial}:${f.secret}`).toString('base64')}`,
    state: model.createDevice(f, {
      speed: job.speed,
      realStart,
      simStart: job.simStart,
      random,
      params: { dropoutPerDay: 0 },
      seqStart: realStart + 1_000_000,
    }),
  }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const url = new URL(`${job.baseUrl}/device/v1/checkin`);
  const latencies: number[] = [];
  // [when it was scheduled (epoch ms), latency ms] of each answered check-in, so a caller can split the
  // figure by what else the server was doing then (run-all.ts: check-in p99 during each REST call).
  const timeline: [number, number][] = [];
  const lags: number[] = [];
  const statuses = new Map<number, number>();
  let points = 0;
  let sent = 0;
  let skipped = 0;
  let outstanding = 0;
  const post = (auth: string, body: string) =>
    new Promise<number>((resolve) => {
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.setTimeout(30_000, () => req.destroy());
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const t0 = performance.now();
  const wallT0 = Date.now();
  const total = Math.round(job.rate * job.seconds);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - t0) / 1000) * job.rate) + 1);
      while (sent < due) {
        const k = sent++;
        const scheduled = t0 + (k / job.rate) * 1000;
        if (outstanding >= job.maxOutstanding) {
          // The server is saturated: stop piling up work it would take minutes to drain. Counted as errors.
          skipped++;
          if (outstanding === 0 && sent >= total) resolve();
          continue;
        }
        lags.push(performance.now() - scheduled);
        const d = devices[k % devices.length]!;
        const wall = Date.now();
        model.advance(d.state, wall, random);
        const upload = model.buildUpload(d.state, wall);
        model.dropSent(d.state, upload); // fire and forget: the next upload of this device carries new events only
        points += model.uploadSize(upload);
        outstanding++;
        void post(d.auth, JSON.stringify(upload.body)).then((status) => {
          latencies.push(performance.now() - scheduled);
          timeline.push([Math.round(wallT0 + (scheduled - t0)), performance.now() - scheduled]);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (--outstanding === 0 && sent >= total) resolve();
        });
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
  return {
    seconds: elapsed,
    sent,
    skipped,
    ok: statuses.get(200) ?? 0,
    errors: sent - (statuses.get(200) ?? 0),
    // What the errors were: an HTTP status, 0 for a connection that failed or timed out (30 s).
    errorStatuses: Object.fromEntries([...statuses].filter(([status]) => status !== 200)),
    rate: sent / job.seconds,
    pointsPerCheckin: points / Math.max(1, sent - skipped),
    p50: q(latencies, 0.5),
    p90: q(latencies, 0.9),
    p99: q(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    lagP99: q(lags, 0.99),
    timeline,
  };
}

// ============================================================ the portal and the measurements (parent)

async function parent() {
  const devicesN = arg('devices', 2000);
  const seconds = arg('seconds', 60);
  const pgliteSeconds = arg('pglite-seconds', Math.min(seconds, 20));
  const latencySeconds = arg('latency-seconds', 30);
  const rate = arg('rate', 200);
  const speed = arg('speed', 3600);
  const concurrency = arg('concurrency', 64);
  const only = argStr('only');
  // 'shared' (default, like a real fleet: every device draws from the same few production batches), or
  // 'per-device' (each device its own batches): a diagnostic that takes the shared batch rows out of the
  // check-in transactions, to measure what the gateway does without that contention.
  const batchMode = argStr('batches') === 'per-device' ? 'per-device' : 'shared';
  const backends = (['postgres', 'pglite'] as const).filter((b) => !only || only === b);

  const { createApp } = await import('../../server/src/app.ts');
  const { loadConfig } = await import('../../server/src/config/config.ts');
  const { count, openDatabase } = await import('../../server/src/db/client.ts');
  const { createMailer } = await import('../../server/src/mail/mailer.ts');
  const { seedDemo } = await import('../../server/src/seed/demo.ts');
  const { gatewayServiceOf } = await import('../../server/src/gateway/index.ts');

  // Statements sent to PostgreSQL, counted at the driver (every pooled connection is a pg.Client).
  let statements = 0;
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
    if (this.database === 'fleet_ingest') statements++;
    return (originalQuery as (...x: unknown[]) => unknown).apply(this, a);
  } as typeof originalQuery;

  const TABLES = ['pump_events', 'battery_readings', 'level_readings', 'data_usage', 'sms_log'] as const;
  const rows: Record<string, string>[] = [];
  console.log(
    `ingest bench: ${devicesN} devices, batches ${batchMode}, speed ${speed}x, ${os.cpus().length} cores (${os.cpus()[0]?.model}), node ${process.version}`,
  );

  for (const backend of backends) {
    const runSeconds = backend === 'pglite' ? pgliteSeconds : seconds;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ingest-'));
    let url: string | undefined;
    if (backend === 'postgres') {
      const admin = new pg.Client('postgres://postgres@127.0.0.1:5432/postgres');
      await admin.connect();
      await admin.query('drop database if exists fleet_ingest with (force)');
      await admin.query('create database fleet_ingest');
      await admin.end();
      url = 'postgres://postgres@127.0.0.1:5432/fleet_ingest';
    }
    const loadAtStart = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const t0 = Date.now();
    const database = await openDatabase(url ? { url } : { dataDir: path.join(dataDir, 'pgdata') });
    await seedDemo(database, { uploadsDir: path.join(dataDir, 'uploads'), historyDays: 1 });
    await placeFleet(database, devicesN, batchMode);
    const config = {
      ...loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        SECRET_KEY: 'i'.repeat(32),
        MAINTENANCE_TOKEN: 'i'.repeat(32),
        CHECKIN_SYNCHRONOUS_COMMIT: process.env.CHECKIN_SYNCHRONOUS_COMMIT,
      }),
      loginLimit: { perEmail: 1000, perAddress: 1000, windowSeconds: 60 },
    };
    const gateway = gatewayServiceOf(database.db, config);
    const placed = (await database.db.execute(
      sql`select serial, right_pump_type from devices where serial like 'SIM%' order by serial`,
    )) as unknown as { rows: { serial: string; right_pump_type: string }[] };
    const fleet: Fleet = [];
    for (const d of placed.rows) {
      const { secret } = await gateway.rotateSecret(d.serial);
      fleet.push({
        serial: d.serial,
        secret,
        leftPumpType: 'Sunscreen',
        rightPumpType: d.right_pump_type === 'Sanitizer' ? 'Sanitizer' : 'Unspecified',
      });
    }
    let serverErrors = 0;
    const app = createApp({
      config,
      database,
      mailer: createMailer({ from: 'bench@x', outboxDir: path.join(dataDir, 'outbox') }),
      // No mail is queued here: the outbox relay's pass every 2 s would be a statement every 2 s, and the
      // idle check below (no statement for 2 s) would wait minutes for a gap between two passes.
      outbox: { intervalMs: 3_600_000 },
      log: (msg, err) => {
        if (serverErrors++ < 3)
          console.error(
            `  [server] ${msg}: ${String((err as Error)?.message ?? '').split('\n')[0]} <- ${(err as Error & { cause?: Error })?.cause?.message ?? ''}`,
          );
      },
    });
    const server = http.createServer(app);
    const countRows = async () => {
      const out: Record<string, number> = {};
      for (const t of TABLES) out[t] = await count(database.db, t);
      return out;
    };
    // Each phase starts on an idle server. A request whose client gave up is still worked on by its
    // handler, so idle means: nothing stored and no statement sent for 2 s (at most 10 minutes).
    const drained = async () => {
      const t = Date.now();
      let last = '';
      let stableSince = Date.now();
      let own = 0;
      while (Date.now() - t < 600_000) {
        const before = statements;
        const rowsNow = Object.values(await countRows()).join(',');
        own += statements - before; // the counting itself
        const now = `${rowsNow}/${statements - own}`;
        if (now !== last) {
          last = now;
          stableSince = Date.now();
        } else if (Date.now() - stableSince >= 2_000) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      return Math.max(0, (stableSince - t) / 1000);
    };
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    console.log(
      `\n[${backend}] ${fleet.length} devices placed and secrets rotated in ${((Date.now() - t0) / 1000).toFixed(1)} s; portal on ${baseUrl}`,
    );

    // The simulated clock of both runs starts in the morning of New Orleans, so dispensing is under way.
    const today = new Date();
    const morning = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 14, 0); // 08:00 CST / 09:00 CDT

    // (a) sustained ingestion
    const before = await countRows();
    const a = await runChild(
      { kind: 'sustain', baseUrl, fleet, speed, seconds: runSeconds, concurrency, simStart: morning },
      (tick) =>
        console.log(
          `  (a) ${String(tick.checkins).padStart(7)} check-ins  ${String(tick.stored).padStart(9)} stored  p50 ${tick.p50.toFixed(0)} ms  p99 ${tick.p99.toFixed(0)} ms  failures ${tick.failures}`,
        ),
      backend === 'postgres',
    );
    const drainA = await drained();
    const after = await countRows();
    const delta = Object.fromEntries(TABLES.map((t) => [t, after[t]! - before[t]!])) as Record<(typeof TABLES)[number], number>;
    const stored = Object.values(delta).reduce((x, y) => x + y, 0);
    const wall = a.wallSeconds;
    const perSec = stored / wall;
    console.log(`  (a) rows stored: ${TABLES.map((t) => `${t} ${delta[t]}`).join(', ')}`);
    console.log(
      `  (a) server RSS ${mb(a.rss.min)}..${mb(a.rss.max)} MB (every 5 s: ${a.rss.samples.map(mb).join(' ')}); server CPU ${pct(a.serverCpuMs, wall)}, load CPU ${pct(a.done.cpuMs, wall)}, postgres CPU ${a.pgCpuMs === null ? 'n/a' : pct(a.pgCpuMs, wall)}; ${a.statements ? `${(a.statements / Math.max(1, a.done.result.checkins!)).toFixed(1)} SQL statements per check-in; ` : ''}server errors ${serverErrors}; ${drainA.toFixed(1)} s until the server was idle`,
    );
    const errorsA = serverErrors;

    // (b) open-loop latency at a fixed rate; each device checks in every devices/rate seconds, carrying
    // 30 simulated minutes of its activity.
    // The tables (a) filled from empty are analysed first, as autovacuum does soon after such a load:
    // without it, (b) measured PostgreSQL planning the check-in's look-ups on the statistics of empty
    // tables or racing autovacuum's own pass, not the steady state (p99 0.2-3 s from run to run).
    const analysed = Date.now();
    if (process.env.BENCH_NO_ANALYZE !== '1') for (const t of TABLES) await database.db.execute(sql.raw(`analyze ${t}`));
    console.log(`  (b) the five tables analysed in ${((Date.now() - analysed) / 1000).toFixed(1)} s`);
    const periodSeconds = fleet.length / rate;
    const b = await runChild(
      {
        kind: 'rate',
        baseUrl,
        fleet,
        rate,
        seconds: latencySeconds,
        speed: 1800 / periodSeconds,
        simStart: morning + 3 * 3_600_000,
        maxOutstanding: 1000,
      },
      () => undefined,
      backend === 'postgres',
    );
    const drainB = await drained();
    console.log(
      `  (b) ${b.done.result.sent} check-ins scheduled at ${b.done.result.rate!.toFixed(0)}/s (${b.done.result.pointsPerCheckin!.toFixed(1)} data points each): p50 ${b.done.result.p50!.toFixed(1)} ms, p90 ${b.done.result.p90!.toFixed(1)} ms, p99 ${b.done.result.p99!.toFixed(1)} ms, max ${b.done.result.max!.toFixed(0)} ms, errors ${b.done.result.errors} (of which ${b.done.result.skipped} not sent: 1000 already waiting); client send lag p99 ${b.done.result.lagP99!.toFixed(1)} ms; server RSS ${mb(b.rss.min)}..${mb(b.rss.max)} MB, server CPU ${pct(b.serverCpuMs, b.wallSeconds)}; ${drainB.toFixed(1)} s until the server was idle; server errors ${serverErrors - errorsA}`,
    );

    // (c) the same rows, inserted raw
    const raw = await rawInsert(database, delta);
    console.log(
      `  (c) raw multi-row INSERT of ${raw.rows} rows in batches of 500: ${raw.seconds.toFixed(1)} s = ${Math.round(raw.rows / raw.seconds)} rows/s`,
    );

    rows.push({
      backend,
      devices: `${fleet.length} (batches ${batchMode})`,
      'a: speed': `${speed}x`,
      'a: seconds': wall.toFixed(0),
      'a: check-ins/s': (a.done.result.checkins! / wall).toFixed(0),
      'a: points/check-in': (stored / Math.max(1, a.done.result.checkins!)).toFixed(1),
      'a: points stored/s': perSec.toFixed(0),
      'a: budget >=10k/s': perSec >= 10_000 ? 'met' : 'MISSED',
      'a: check-in p50/p99 ms': `${a.lastTick?.p50.toFixed(0) ?? '-'}/${a.lastTick?.p99.toFixed(0) ?? '-'} (last 5 s, closed loop, ${concurrency} in flight)`,
      'a: failures (retried)': `${a.done.result.failures! + a.done.result.rejected!} (server errors ${errorsA})`,
      'a: RSS min..max MB': `${mb(a.rss.min)}..${mb(a.rss.max)}`,
      'a: CPU server/load/pg': `${pct(a.serverCpuMs, wall)}/${pct(a.done.cpuMs, wall)}/${a.pgCpuMs === null ? '-' : pct(a.pgCpuMs, wall)} of one core`,
      'a: CPU ms per check-in server/pg': `${(a.serverCpuMs / Math.max(1, a.done.result.checkins!)).toFixed(1)}/${a.pgCpuMs === null ? '-' : (a.pgCpuMs / Math.max(1, a.done.result.checkins!)).toFixed(1)}`,
      'a: SQL statements/check-in': a.statements ? (a.statements / Math.max(1, a.done.result.checkins!)).toFixed(1) : '-',
      'b: rate': `${b.done.result.rate!.toFixed(0)}/s for ${latencySeconds} s`,
      'b: p50/p90/p99/max ms': `${b.done.result.p50!.toFixed(1)}/${b.done.result.p90!.toFixed(1)}/${b.done.result.p99!.toFixed(1)}/${b.done.result.max!.toFixed(0)}`,
      'b: budget p99<100ms': b.done.result.p99! < 100 && b.done.result.errors === 0 ? 'met' : 'MISSED',
      'b: errors': String(b.done.result.errors),
      'b: CPU ms per check-in server/pg': `${(b.serverCpuMs / Math.max(1, b.done.result.ok!)).toFixed(1)}/${b.pgCpuMs === null ? '-' : (b.pgCpuMs / Math.max(1, b.done.result.ok!)).toFixed(1)}`,
      'load average at start': loadAtStart,
      'c: raw INSERT rows/s': String(Math.round(raw.rows / raw.seconds)),
      'c: ingest vs raw': `${((perSec / (raw.rows / raw.seconds)) * 100).toFixed(1)} %`,
    });

    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  // The table: one column per backend.
  console.log('\n=== ingestion benchmark ===');
  const keys = Object.keys(rows[0] ?? {});
  const width = Math.max(...keys.map((k) => k.length));
  for (const k of keys) console.log(`${k.padEnd(width)}  ${rows.map((r) => (r[k] ?? '').padEnd(34)).join('  ')}`);
  pg.Client.prototype.query = originalQuery;

  /** Forks the load process, samples the server meanwhile, and answers what both measured. */
  async function runChild(job: ChildJob, onTick: (t: Tick) => void, postgres: boolean) {
    const file = path.join(os.tmpdir(), `fleet-ingest-job-${process.pid}-${job.kind}.json`);
    fs.writeFileSync(file, JSON.stringify(job));
    const proc: ChildProcess = fork(HERE, ['--child', file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let lastTick: Tick | undefined;
    let startedAt = 0;
    const samples: number[] = [];
    let cpu0 = process.cpuUsage();
    let pg0: Map<number, number> | null = null;
    let st0 = 0;
    let sampler: NodeJS.Timeout | undefined;
    const done = await new Promise<Done>((resolve, reject) => {
      proc.on('message', async (m: { kind: string }) => {
        if (m.kind === 'ready') {
          startedAt = Date.now();
          cpu0 = process.cpuUsage();
          pg0 = postgres ? await backendCpu() : null;
          st0 = statements;
          samples.push(process.memoryUsage().rss);
          sampler = setInterval(() => samples.push(process.memoryUsage().rss), 5_000);
          proc.send({ go: true });
        } else if (m.kind === 'tick') {
          lastTick = m as Tick;
          onTick(lastTick);
        } else if (m.kind === 'done') resolve(m as Done);
      });
      proc.on('exit', (code) => reject(new Error(`load process exited with ${code}`)));
    });
    clearInterval(sampler);
    samples.push(process.memoryUsage().rss);
    const wallSeconds = (Date.now() - startedAt) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const pg1 = postgres ? await backendCpu() : null;
    fs.rmSync(file, { force: true });
    return {
      done,
      lastTick,
      wallSeconds,
      serverCpuMs: (cpu.user + cpu.system) / 1000,
      // Backends that exist at the end: their CPU since the start (all of it when they opened meanwhile).
      pgCpuMs: pg0 && pg1 ? [...pg1].reduce((sum, [pid, ms]) => sum + ms - (pg0!.get(pid) ?? 0), 0) : null,
      statements: postgres ? statements - st0 : 0,
      rss: { min: Math.min(...samples), max: Math.max(...samples), samples },
    };
  }
}

/** N devices on N/10 generated sites near New Orleans, as the simulate CLI would place them. */
async function placeFleet(database: { exec(text: string): Promise<void> }, n: number, batchMode: 'shared' | 'per-device') {
  const batchOf = (type: 'SPF' | 'SAN') =>
    batchMode === 'shared'
      ? `(SELECT id FROM batches WHERE batch_no = '${type}-2601')`
      : `(SELECT id FROM batches WHERE batch_no = '${type}-SIM' || lpad(k::text, 6, '0'))`;
  await database.exec(`
    INSERT INTO batches (batch_no, batch_type, install_date, expire_date, volume_litres, remain_litres)
    SELECT t.prefix || '-SIM' || lpad(k::text, 6, '0'), t.type, current_date - 10, current_date + 400, 100, 100
    FROM generate_series(1, ${batchMode === 'shared' ? 0 : n}) AS k, (VALUES ('SPF', 1), ('SAN', 2)) AS t(prefix, type);

    SELECT setseed(0.31);
    INSERT INTO device_groups (name, address, lat, lng, location_id, timezone_id)
    SELECT s || ' Simulated Way', s || ' Simulated Way, New Orleans, LA',
           round((30.0 + (random() * 2 - 1) * 0.3)::numeric, 6), round((-90.26 + (random() * 2 - 1) * 0.3)::numeric, 6),
           (SELECT array_agg(id ORDER BY id) FROM locations)[1 + s % (SELECT count(*) FROM locations)::int], 'America/Chicago'
    FROM generate_series(1, ${Math.ceil(n / 10)}) AS s;

    INSERT INTO devices (serial, label, number, address, lat, lng, group_id, brand_id, left_pump_type, right_pump_type,
                         batch_id, batch2_id, volume_remain, volume_remain2, is_online, core_ver, poweroff_time, wakeup1_time)
    SELECT 'SIM' || lpad(k::text, 6, '0'), 'Simulated ' || ((k - 1) / 10 + 1) || '-' || ((k - 1) % 10 + 1), (k - 1) % 10 + 1,
           g.address, g.lat, g.lng, g.id, (SELECT min(id) FROM brands), 'Sunscreen',
           CASE WHEN k % 3 = 0 THEN 'Sanitizer' ELSE 'Unspecified' END,
           ${batchOf('SPF')}, CASE WHEN k % 3 = 0 THEN ${batchOf('SAN')} END,
           1000, CASE WHEN k % 3 = 0 THEN 1000 ELSE 0 END, false, '1.1.2', '30', '5'
    FROM generate_series(1, ${n}) AS k
    JOIN device_groups g ON g.name = ((k - 1) / 10 + 1) || ' Simulated Way';

    INSERT INTO pump_settings (device_id, ml_per_shot, ml_per_shot2)
    SELECT id, 2.464, 2.464 FROM devices WHERE serial LIKE 'SIM%';
    ANALYZE;
  `);
}

/**
 * (c): as many fresh rows as (a) stored, per table, sent raw through the driver (no ORM): multi-row
 * INSERT ... VALUES of 500 rows with parameters, one after the other, each its own transaction.
 */
async function rawInsert(
  database: { db: import('../../server/src/db/client.ts').Db },
  delta: Record<'pump_events' | 'battery_readings' | 'level_readings' | 'data_usage' | 'sms_log', number>,
) {
  const client = (database.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<unknown> } }).$client;
  const ids = (
    (await database.db.execute(sql`select id from devices where serial like 'SIM%' order by id`)) as unknown as {
      rows: { id: number }[];
    }
  ).rows.map((r) => r.id);
  const base = Date.now() - 200 * 86_400_000;
  const statements: { text: string; params: unknown[] }[] = [];
  const table = (name: string, columns: string[], total: number, row: (i: number) => unknown[]) => {
    for (let from = 0; from < total; from += 500) {
      const n = Math.min(500, total - from);
      const params: unknown[] = [];
      const tuples: string[] = [];
      for (let k = 0; k < n; k++) {
        const values = row(from + k);
        tuples.push(`(${values.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
      }
      statements.push({
        text: `INSERT INTO ${name} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING`,
        params,
      });
    }
  };
  const dev = (i: number) => ids[i % ids.length]!;
  const at = (i: number) => new Date(base + i).toISOString();
  table('pump_events', ['device_id', 'pump_number', 'seq', 'occurred_at', 'volume_ml'], delta.pump_events, (i) => [
    dev(i),
    1,
    1e12 + i,
    at(i),
    2.464,
  ]);
  table('battery_readings', ['device_id', 'recorded_at', 'battery_volt', 'battery_percent'], delta.battery_readings, (i) => [
    dev(i),
    at(i),
    3.9,
    66,
  ]);
  table(
    'level_readings',
    ['device_id', 'pump_number', 'recorded_at', 'level_sensor', 'volume_remain'],
    delta.level_readings,
    (i) => [dev(i), 1, at(i), true, 800],
  );
  table('data_usage', ['device_id', 'recorded_at', 'kb', 'signal_quality'], delta.data_usage, (i) => [dev(i), at(i), 42, 60]);
  table('sms_log', ['device_id', 'direction', 'message', 'created_when', 'seq'], delta.sms_log, (i) => [
    dev(i),
    'OUT',
    'STATUS OK',
    at(i),
    1e12 + i,
  ]);
  const t0 = performance.now();
  for (const q of statements) await client.query(q.text, q.params);
  const rows = Object.values(delta).reduce((x, y) => x + y, 0);
  return { rows, seconds: (performance.now() - t0) / 1000 };
}

/** CPU time (ms) of each PostgreSQL backend serving the bench database, from /proc (Linux). */
async function backendCpu(): Promise<Map<number, number> | null> {
  const admin = new pg.Client('postgres://postgres@127.0.0.1:5432/postgres');
  try {
    await admin.connect();
    const res = await admin.query<{ pid: number }>(`select pid from pg_stat_activity where datname = 'fleet_ingest'`);
    const out = new Map<number, number>();
    for (const { pid } of res.rows) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(pid, (Number(f[11]) + Number(f[12])) * 10); // utime + stime, in 1/100 s
      } catch {
        /* gone meanwhile, or not on this machine */
      }
    }
    return out;
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function mb(bytes: number) {
  return (bytes / 1024 / 1024).toFixed(0);
}
function pct(cpuMs: number, seconds: number) {
  return `${((cpuMs / 1000 / seconds) * 100).toFixed(0)}%`;
}
