/**
 * The push server under load, alone in its own process so its RSS and CPU are measured without the
 * load generator: the test harness (PGlite, or its own schema in PostgreSQL at 127.0.0.1:5432, seeded
 * with the demo fleet) + createApp + startRealtime on
 * 127.0.0.1, with the real poll periods unless told otherwise. Started by tests/load/push.bench.ts with
 * an IPC channel (child_process.fork); also runnable by hand:
 *
 *   node --import tsx --expose-gc tests/load/push-server.ts [--backend pglite|postgres] [--pglite-dir DIR] [--device-period 10000] [--tick-ms 250]
 *
 * Prints `{"port":N}` on its first stdout line (and sends { type: 'ready', port } over IPC). Answers
 * { type: 'stats', id } over IPC, and GET /__load/stats over HTTP, with its memory, CPU, event-loop
 * delay, socket count, upstream_polls_total (rt.counters) and the upstream device GETs it served (seen
 * at the HTTP layer, with their arrival times and durations, as an independent count of the pollers'
 * calls). Exits on { type: 'close' }, when the parent goes away, or after --max-minutes (20) at most.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness } from '../helpers/harness.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
};
const backend = process.argv[process.argv.indexOf('--backend') + 1] === 'postgres' ? 'postgres' : 'pglite';
/** --pglite-dir <dir>: PGlite on files, created and seeded when empty, as `npm start` runs it (else in memory). */
const pgliteDir = process.argv.includes('--pglite-dir') ? process.argv[process.argv.indexOf('--pglite-dir') + 1] : undefined;
const devicePeriod = arg('device-period');
const tickMs = arg('tick-ms');
const maxMinutes = arg('max-minutes') ?? 20;

// Bounded: never outlive the bench by much, whatever happens to it.
setTimeout(() => process.exit(3), maxMinutes * 60_000).unref();
process.on('disconnect', () => process.exit(0));

const h = await startHarness(
  backend,
  { loginLimit: { perEmail: 10_000, perAddress: 10_000, windowSeconds: 60 } },
  pgliteDir ? { pgliteDir } : {},
);
// eslint-disable-next-line prefer-const -- assigned once the server listens; the closures above read it before
let rt: Awaited<ReturnType<typeof startRealtime>> | undefined;
const app = createApp({
  config: h.config,
  database: h.database,
  mailer: createMailer({ from: 'load@x', outboxDir: path.join(h.dataDir, 'outbox') }),
  log: () => undefined,
  metrics: () => rt?.counters.prometheus() ?? '',
});

/** Upstream device GETs (service credential) as the device API saw them: arrival time and duration. */
const upstream: { serial: string; at: number; ms: number }[] = [];
/** Broadcasts: room, event, wall time, synchronous duration (encode + a write per socket), room size. */
const emits: { room: string; event: string; at: number; ms: number; sockets: number }[] = [];
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();
let cpuMark = process.cpuUsage();
let wallMark = performance.now();

function stats() {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage(cpuMark);
  const wall = performance.now() - wallMark;
  return {
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    heapTotal: mem.heapTotal,
    external: mem.external,
    arrayBuffers: mem.arrayBuffers,
    pollsDevice: rt?.counters.total('device') ?? 0,
    pollsTotal: rt?.counters.total() ?? 0,
    upstream: upstream.slice(),
    emits: emits.slice(),
    engineClients: rt?.io.engine.clientsCount ?? 0,
    sockets: rt?.io.of('/').sockets.size ?? 0,
    /** Since the last mark: CPU share of one core, and event-loop delay in ms. */
    cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
    eventLoop: { p50: eld.percentile(50) / 1e6, p99: eld.percentile(99) / 1e6, max: eld.max / 1e6 },
  };
}
export type PushServerStats = ReturnType<typeof stats>;

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/__load/stats') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(stats()));
    return;
  }
  const m = req.method === 'GET' ? /^\/api\/v1\/device\/([^/?]+)/.exec(req.url ?? '') : null;
  if (m && req.headers.authorization === `Token ${h.config.serviceToken}`) {
    const started = performance.now();
    const entry = { serial: decodeURIComponent(m[1]!), at: Date.now(), ms: 0 };
    upstream.push(entry);
    res.on('finish', () => (entry.ms = performance.now() - started));
  }
  app(req, res);
});
server.maxConnections = 50_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
rt = await startRealtime(server, {
  db: h.database.db,
  auth: app.auth,
  serviceToken: h.config.serviceToken,
  deviceApiUrl: `http://127.0.0.1:${port}`,
  ...(devicePeriod ? { periods: { device: devicePeriod } } : {}),
  ...(tickMs ? { tickMs } : {}),
});

// Times each broadcast (the synchronous part: encode once, write a frame to every socket of the room),
// so the bench can tell the server's share of the fan-out from the clients'. Only this test server does it.
{
  const io = rt.io;
  const to = io.to.bind(io);
  io.to = ((room: string) => {
    const op = to(room);
    const emit = op.emit.bind(op);
    op.emit = ((event: string, ...args: unknown[]) => {
      const t = performance.now();
      const ok = (emit as (e: string, ...a: unknown[]) => boolean)(event, ...args);
      emits.push({
        room,
        event,
        at: Date.now(),
        ms: performance.now() - t,
        sockets: io.sockets.adapter.rooms.get(room)?.size ?? 0,
      });
      return ok;
    }) as typeof op.emit;
    return op;
  }) as typeof io.to;
}

async function close() {
  await rt?.close().catch(() => undefined);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await h.close().catch(() => undefined);
}

type Msg = { type: 'stats' | 'mark' | 'gc' | 'close'; id: number };
process.on('message', (raw) => {
  const msg = raw as Msg;
  void (async () => {
    if (msg.type === 'mark') {
      cpuMark = process.cpuUsage();
      wallMark = performance.now();
      eld.reset();
    }
    if (msg.type === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) for (let i = 0; i < 3; i++) gc();
      await new Promise((r) => setTimeout(r, 200));
    }
    if (msg.type === 'close') {
      await close();
      process.send?.({ type: 'closed', id: msg.id });
      process.disconnect?.();
      process.exit(0);
    }
    process.send?.({ type: msg.type, id: msg.id, stats: stats() });
  })();
});

console.log(JSON.stringify({ port }));
process.send?.({ type: 'ready', port });
