/**
 * A server process for the REST and Lighthouse rounds of `npm run bench` (tests/bench/run-all.ts), so
 * the load generator and Chromium do not share its event loop and its RSS is its own.
 *
 *   portal mode (default): the portal on the bench fleet (bench-fleet.ts), the built client served from
 *     CLIENT_DIST (or client/dist) like `npm start`;
 *   --bare <file>: a bare Express 5 server answering GET / with that file's bytes as JSON, the floor for
 *     a big JSON answer on this machine;
 *   --gateway: the device gateway alone on the bench fleet's database, as `npm run start:gateway` serves it
 *     (server/src/processes/gateway.ts); the portal process must have opened (seeded) that database first.
 *   --reuse: the portal on the run's database as it is (bench-fleet.ts copies its template otherwise);
 *   --realtime: the portal with its push server and pollers as `npm start` runs them (startRealtime, in
 *     memory), counting the pollers' upstream GETs per topic; 'polls' answers { polls } (the fan-in row).
 *   --port <n>: listen there (run-all.ts picks ports in BENCH_PORTS), else on a free port.
 * Sends the parent { port, prepared } once listening (prepared: how the fleet's database was made,
 * bench-fleet.ts), { rss } when asked ('rss'; 'rss-reset' first resets the peak to the current RSS), and
 * exits on 'stop' or when its parent goes.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import express from 'express';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** Peak and current RSS of this process (VmHWM is the kernel's high-water mark). */
function rss() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  const m = process.memoryUsage();
  return {
    rss: kb('VmRSS'),
    peak: kb('VmHWM'),
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
}

let close: () => Promise<void> = async () => undefined;
const bare = arg('bare');
// The portal's and the gateway's processes set their heap's growth as main.ts does (HEAP_GROWING_PERCENT,
// server/src/ops/heap-growth.ts); the bare Express baseline keeps V8's own.
if (!bare) {
  const { heapGrowingPercent, limitHeapGrowth } = await import('../../server/src/ops/heap-growth.ts');
  limitHeapGrowth(heapGrowingPercent(process.env));
}
let port: number;
const listenPort = Number(arg('port') ?? 0);
let prepared: unknown = null;
/** Upstream GETs of the pollers per topic (--realtime). */
const polls: Record<string, number> = {};
if (bare) {
  const body = fs.readFileSync(bare);
  const app = express();
  app.get('/', (_req, res) => void res.type('json').send(body));
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  close = async () => void server.close();
} else if (process.argv.includes('--gateway')) {
  const { openBenchFleet, BENCH_SECRET_KEY } = await import('./bench-fleet.ts');
  const { createGatewayApp } = await import('../../server/src/processes/gateway.ts');
  const { loadConfig } = await import('../../server/src/config/config.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-gateway-bench-'));
  const database = await openBenchFleet({
    pglite: false,
    devices: Number(arg('devices') ?? 10_000),
    sites: Number(arg('sites') ?? 1_000),
    days: Number(arg('days') ?? 365),
    dataDir,
    copy: false,
  });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: BENCH_SECRET_KEY,
    MAINTENANCE_TOKEN: BENCH_SECRET_KEY,
    CHECKIN_SYNCHRONOUS_COMMIT: process.env.CHECKIN_SYNCHRONOUS_COMMIT,
  });
  const server = http.createServer(createGatewayApp({ config, database, log: () => undefined }));
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  close = async () => {
    server.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
} else {
  const { openBenchFleet, startBenchPortal } = await import('./bench-fleet.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-rest-bench-'));
  const database = await openBenchFleet({
    pglite: process.argv.includes('--pglite'),
    devices: Number(arg('devices') ?? 10_000),
    sites: Number(arg('sites') ?? 1_000),
    days: Number(arg('days') ?? 365),
    dataDir,
    copy: !process.argv.includes('--reuse'),
  });
  prepared = database.prepared;
  const clientDir = path.resolve(process.env.CLIENT_DIST ?? path.join(import.meta.dirname, '../../client/dist'));
  const portal = await startBenchPortal(database, dataDir, { clientDir, port: listenPort });
  port = Number(new URL(portal.base).port);
  // The push server and its pollers as the one-command run has them (processes/portal.ts), polling this
  // same process; each upstream GET counted by topic.
  const realtime = process.argv.includes('--realtime')
    ? await (
        await import('../../server/src/realtime/index.ts')
      ).startRealtime(portal.server, {
        db: database.db,
        auth: portal.app.auth,
        serviceToken: portal.config.serviceToken,
        deviceApiUrl: portal.base,
        nudges: portal.app.nudges.source,
        countPoll: (topic) => void (polls[topic] = (polls[topic] ?? 0) + 1),
      })
    : null;
  close = async () => {
    await realtime?.close();
    await portal.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
process.send!({ port, prepared });
process.on('message', async (message) => {
  if (message === 'rss') process.send!({ rss: rss() });
  if (message === 'polls') process.send!({ polls: { ...polls } });
  // This process's CPU time so far and its event loop's utilisation (performance.eventLoopUtilization's
  // running totals): two readings tell how busy it was between them.
  if (message === 'usage') {
    const cpu = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    process.send!({ usage: { cpuMs: (cpu.user + cpu.system) / 1000, activeMs: elu.active, idleMs: elu.idle } });
  }
  // Resets the kernel's high-water mark (VmHWM) to the current RSS, so a peak is that of what follows.
  if (message === 'rss-reset') {
    const before = rss().peak;
    fs.writeFileSync('/proc/self/clear_refs', '5');
    process.send!({ rss: { ...rss(), lifetimePeak: before } });
  }
  if (message === 'stop') {
    await close().catch(() => undefined);
    process.exit(0);
  }
});
// A parent that ended without 'stop' (a bench that failed half-way) leaves no server behind: one left
// running kept polling its fleet and took CPU from the measurements that followed.
process.on('disconnect', () => {
  void close()
    .catch(() => undefined)
    .finally(() => process.exit(0));
});
