import { execSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@fleet/shared';
import { openDatabase } from '../../server/src/db/client.ts';
import { seedDemo } from '../../server/src/seed/demo.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../helpers/backends.ts';
import { freePort } from '../helpers/ports.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { confirmationPath } from '../helpers/report-recipients.ts';
import { CHROMIUM, TEST_BROWSER_ARGS, mapData, signInToMap } from '../e2e/browser.ts';
import { CLIENT_DIST } from '../e2e/server.ts';

/**
 * The scaled deployment for real: two `npm run start:server` and two `npm run start:worker` processes
 * (the commands of package.json's scripts) on their own ports, one fresh PostgreSQL database and one
 * Redis (a key prefix of their own), a real SMTP server. In CI (CI=true) PostgreSQL and Redis must be
 * reachable: the helpers throw instead of skipping. Later tests replace processes (a slow worker killed
 * with SIGKILL mid-job, server A restarted under a browser driving the real client in Chromium), so the
 * tests run in file order. Test knobs: JOB_LOCK_MS (a dead worker's jobs come back in seconds) and
 * OPS_TEST_MAIL_DELAY_MS (server/src/ops/job-queue.ts: a worker holds each mail, so it can be killed mid-job).
 */
const root = path.resolve(import.meta.dirname, '../..');
const up = (await postgresAvailable()) && (await redisAvailable());
const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const DEVICE_PERIOD = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
type LogLine = { msg?: string; requestId?: string; tick?: string; slot?: string; role?: string; level?: number };

type Proc = { name: string; child: ChildProcess; port: number; base: string; lines: LogLine[]; exited: Promise<number | null> };

/** Starts `npm run <script>` as package.json spells it (`node --import tsx ...`, no npm in between, so SIGTERM reaches it). */
function start(
  name: string,
  script: 'start:server' | 'start:worker' | 'start:gateway',
  port: number,
  env: NodeJS.ProcessEnv,
): Proc {
  const [bin, ...args] = scripts[script]!.split(/\s+/);
  expect(bin).toBe('node');
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let buffer = '';
  const take = (chunk: Buffer) => {
    buffer += chunk.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        if (line.trim() && process.env.OPS_TEST_VERBOSE) console.log(`[${name}] ${line}`);
      }
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { name, child, port, base: `http://127.0.0.1:${port}`, lines, exited };
}

async function ready(p: Proc, timeoutMs = 45_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (p.child.exitCode !== null)
      throw new Error(`${p.name} exited with ${p.child.exitCode}: ${JSON.stringify(p.lines.slice(-5))}`);
    // Its own log says it listens before its /readyz counts: another server answering on the port would not be it.
    const listening = p.lines.some(
      (l) =>
        typeof l.msg === 'string' &&
        (l.msg.startsWith('server: listening on') ||
          l.msg.startsWith('worker: health and metrics on') ||
          l.msg.startsWith('gateway: device check-ins on')),
    );
    try {
      if (listening && (await fetch(`${p.base}/readyz`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`${p.name} not ready within ${timeoutMs} ms`);
}

const metric = async (p: Proc, name: string, labels: string) => {
  const text = await (await fetch(`${p.base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe.skipIf(!up)('scaled run: two start:server and two start:worker processes', () => {
  const dbName = `ops_${crypto.randomBytes(5).toString('hex')}`;
  const dbUrl = (() => {
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const procs: Proc[] = [];
  let serverA: Proc, serverB: Proc, gateway: Proc;
  let token = '';
  /**
   * Recipients already on the distributor's list and confirmed (as every recipient of before issue 42 is): these
   * tests hold or kill the only worker, which would hold their confirmation mails too. The confirmation link
   * itself is followed in the request-id test above and in security-report-mails.test.ts.
   */
  const confirmedRecipients = async (emails: string[]) => {
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    for (const email of emails) {
      await db.query(
        `insert into report_emails (owner_id, name, email, is_enable, confirmed_at) select id, 'Ops', $1, true, now() from users where email = 'distributor@demo.test'`,
        [email],
      );
    }
    await db.end();
  };
  let env: NodeJS.ProcessEnv = {};
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ops-'));
  /** The workers among the processes, in start order (the gateway is a process too). */
  const workerProcs = () => procs.filter((p) => p.name.includes('worker'));
  /** A further worker (a restart, a replacement), polling through server B; kept for afterAll. */
  const startWorker = async (name: string, extra: NodeJS.ProcessEnv = {}) => {
    const w = start(name, 'start:worker', await freePort(), {
      ...env,
      DATA_DIR: dataDir(),
      DEVICE_API_URL: serverB.base,
      ...extra,
    });
    procs.push(w);
    return w;
  };

  beforeAll(async () => {
    // The browser test opens the real client that the servers serve.
    if (!fs.existsSync(path.join(CLIENT_DIST, 'index.html')))
      execSync('npm run build -w client', { cwd: root, stdio: 'inherit' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    smtp = await startSmtpServer();
    const [pa, pb, pw1, pw2, pg1] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `ops-${crypto.randomBytes(4).toString('hex')}:`,
      SMTP_URL: smtp.url,
      // Shared secrets only through the environment: each process has its own DATA_DIR.
      SECRET_KEY: crypto.randomBytes(24).toString('hex'),
      MAINTENANCE_TOKEN: crypto.randomBytes(24).toString('hex'),
      SERVICE_TOKEN: crypto.randomBytes(24).toString('hex'),
      SEED_DEMO: 'false',
      LOG_FORMAT: 'json',
      POLL_TICK_MS: '100',
      POLL_PERIODS: `device=${DEVICE_PERIOD},deviceCards=${DEVICE_PERIOD}`,
      // No fleet-health tick during the run: the seeded devices never check in, so the minute tick would
      // mark some offline while the restart test counts offline pins (CI saw 7 where 6 was right).
      FLEET_HEALTH_INTERVAL_MS: '3600000',
      CLIENT_DIST,
      REPORT_DAILY_CRON: '*/2 * * * * *',
      // A killed worker's jobs go back to the queue within seconds, not BullMQ's default 30 s.
      JOB_LOCK_MS: '2000',
    };
    serverA = start('server A', 'start:server', pa, { ...env, DATA_DIR: dataDir() });
    serverB = start('server B', 'start:server', pb, { ...env, DATA_DIR: dataDir() });
    // The workers poll through server A and server B (a proxy's job in compose).
    const w1 = start('worker 1', 'start:worker', pw1, { ...env, DATA_DIR: dataDir(), DEVICE_API_URL: `http://127.0.0.1:${pa}` });
    const w2 = start('worker 2', 'start:worker', pw2, { ...env, DATA_DIR: dataDir(), DEVICE_API_URL: `http://127.0.0.1:${pb}` });
    // The devices' own process (the proxy sends /device/ to it in compose): the database only, no Redis.
    const { REDIS_URL: _redis, ...gatewayEnv } = env;
    gateway = start('gateway', 'start:gateway', pg1, { ...gatewayEnv, DATA_DIR: dataDir() });
    procs.push(serverA, serverB, w1, w2, gateway);
    // All five migrate the empty database at once (the advisory lock serialises them).
    await Promise.all(procs.map((p) => ready(p)));
    const seeded = await openDatabase({ url: dbUrl, migrate: false });
    await seedDemo(seeded, { uploadsDir: path.join(dataDir(), 'uploads'), historyDays: 1 });
    await seeded.close();
    token = (
      await (
        await fetch(`${serverB.base}/auth/token/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
        })
      ).json()
    ).auth_token;
  }, 120_000);

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => Promise.race([p.exited, sleep(12_000)])));
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await smtp?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }, 60_000);

  it('ran the migrations once although five processes started together', async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(root, 'server/drizzle/meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows } = await db.query<{ tag: string }>('select tag from schema_migrations order by tag');
    await db.end();
    expect(rows.map((r) => r.tag)).toEqual(journal.entries.map((e) => e.tag).sort());
    expect(procs.every((p) => p.child.exitCode === null)).toBe(true);
    // HOST=127.0.0.1: each server says where it listens (loopback only, not every interface).
    for (const server of [serverA, serverB])
      expect(server.lines.map((l) => l.msg)).toContain(
        `server: listening on 127.0.0.1:${server.port} (public http://localhost:${server.port})`,
      );
  });

  it('a socket on server A hears a change made through server B; each watched device is polled once per period in total', async () => {
    const socket: Client = connect(serverA.base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    const heard: { serial: string; patch: Record<string, unknown> }[] = [];
    socket.on('device:changed', (p) => heard.push(p as never));
    const ack = await new Promise<{ ok: boolean }>((resolve) =>
      socket.emit('subscribe', { topic: 'device', serial: 'SP240007' }, resolve as never),
    );
    expect(ack.ok).toBe(true);
    // Servers never poll: only the workers' counters move.
    const polls = async () =>
      (await Promise.all(procs.map((p) => metric(p, 'upstream_polls_total', 'topic="device"')))) as number[];
    await sleep(DEVICE_PERIOD * 1.5);
    const before = await polls();
    await sleep(DEVICE_PERIOD * 5);
    const after = await polls();
    const [sa, sb, w1, w2] = after.map((n, i) => n - before[i]!);
    expect([sa, sb]).toEqual([0, 0]);
    // Two workers without the shared lock would poll about 10 times in 5 periods.
    expect(w1! + w2!).toBeGreaterThanOrEqual(4);
    expect(w1! + w2!).toBeLessThanOrEqual(6);

    // The change: a device's new secret through server B, its check-in at the gateway process.
    const secret = (
      await (
        await fetch(`${serverB.base}/api/v1/deviceSecret/SP240007`, {
          method: 'POST',
          headers: { Authorization: `Token ${token}` },
        })
      ).json()
    ).secret as string;
    const checkin = await fetch(`${gateway.base}/device/v1/checkin`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        Authorization: `Basic ${Buffer.from(`SP240007:${secret}`).toString('base64')}`,
      },
      body: JSON.stringify({ sentAt: new Date().toISOString(), signalQuality: 13 }),
    });
    expect(checkin.status).toBeLessThan(300);
    for (let i = 0; i < 40 && !heard.some((h) => h.patch.signal_quality === 13); i++) await sleep(100);
    expect(heard).toContainEqual(
      expect.objectContaining({ serial: 'SP240007', patch: expect.objectContaining({ signal_quality: 13 }) }),
    );
    expect(await metric(gateway, 'device_checkins_total', 'outcome="accepted"')).toBe(1);
    expect(await metric(serverB, 'device_checkins_total', 'outcome="accepted"')).toBe(0);
    socket.close();
  });

  it('the gateway process answers devices and its health only: no portal call, no client, no Redis', async () => {
    expect(await (await fetch(`${gateway.base}/readyz`)).json()).toEqual({ status: 'ready', database: 'up' });
    expect((await fetch(`${gateway.base}/api/v1/device`, { headers: { Authorization: `Token ${token}` } })).status).toBe(404);
    expect(
      (
        await fetch(`${gateway.base}/auth/token/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${gateway.base}/`)).status).toBe(404);
    const refused = await fetch(`${gateway.base}/device/v1/checkin`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        Authorization: `Basic ${Buffer.from('SP240007:not-its-secret').toString('base64')}`,
      },
      body: JSON.stringify({ sentAt: new Date().toISOString() }),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ detail: 'Invalid device credentials.' });
    expect(await metric(gateway, 'device_checkins_total', 'outcome="refused"')).toBe(1);
    expect(gateway.lines.map((l) => l.msg)).toContain(`gateway: device check-ins on 127.0.0.1:${gateway.port}`);
  });

  it('GET /metrics: a server times requests by route pattern and counts its sockets; a worker counts its polls, the queue and mails', async () => {
    const auth = { Authorization: `Token ${token}` };
    const value = (text: string, name: string, labels: string[]) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    // Two devices that do not exist give the route's 404 series, which only these two requests feed; one that
    // exists gives its 200 series (the workers' pollers may feed it too, through either server, as their shards fall).
    const notFound = ['method="GET"', 'route="/api/v1/device/:serial"', 'status="404"', 'role="server"'];
    const found = ['method="GET"', 'route="/api/v1/device/:serial"', 'status="200"', 'role="server"'];
    const first = await (await fetch(`${serverA.base}/metrics`)).text();
    const before = value(first, 'http_request_duration_seconds_count', notFound) ?? 0;
    const beforeFound = value(first, 'http_request_duration_seconds_count', found) ?? 0;
    expect((await fetch(`${serverA.base}/api/v1/device/SP240007`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${serverA.base}/api/v1/device/SP999003`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${serverA.base}/api/v1/device/SP999004`, { headers: auth })).status).toBe(404);
    const socket: Client = connect(serverA.base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    // Watched, so one of the two workers polls it (whichever owns its shard).
    await new Promise((resolve) => socket.emit('subscribe', { topic: 'device', serial: 'SP240007' }, resolve));
    const server = await (await fetch(`${serverA.base}/metrics`)).text();
    expect(value(server, 'http_request_duration_seconds_count', notFound)! - before).toBe(2);
    expect(value(server, 'http_request_duration_seconds_count', found)! - beforeFound).toBeGreaterThanOrEqual(1);
    expect(server).not.toMatch(/SP99900[34]|SP240007/);
    expect(value(server, 'socketio_open_sockets', ['role="server"'])).toBeGreaterThanOrEqual(1);
    // The server sees the shared queue; it never polls.
    for (const state of ['waiting', 'active', 'delayed', 'failed'])
      expect(value(server, 'job_queue_depth', [`state="${state}"`])).toBeGreaterThanOrEqual(0);
    expect(value(server, 'upstream_polls_total', ['topic="device"'])).toBe(0);

    const workers = async () =>
      Promise.all(
        workerProcs()
          .slice(0, 2)
          .map(async (w) => (await fetch(`${w.base}/metrics`)).text()),
      );
    const polls = (text: string) => value(text, 'upstream_polls_total', ['topic="device"', 'role="worker"']) ?? 0;
    await expect
      .poll(async () => (await workers()).reduce((sum, text) => sum + polls(text), 0), { timeout: 15_000 })
      .toBeGreaterThan(0);
    socket.close();
    for (const worker of await workers()) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(value(worker, 'job_queue_depth', [`state="${state}"`, 'role="worker"'])).toBeGreaterThanOrEqual(0);
      expect(value(worker, 'mails_total', ['outcome="sent"'])).toBeGreaterThanOrEqual(0);
      expect(value(worker, 'mails_total', ['outcome="failed"'])).toBe(0);
      // A worker answers no API: its only timed routes are its health and metrics.
      expect(worker).not.toMatch(/route="\/api/);
      expect(value(worker, 'socketio_open_sockets', ['role="worker"'])).toBe(0);
    }
  });

  it('fires each scheduled tick on one worker only, and the summary mail goes out once', async () => {
    await sleep(5_000);
    const workers = workerProcs();
    const claims = workers.flatMap((w) => w.lines.filter((l) => l.tick === 'summary-daily').map((l) => `${l.slot}`));
    // A tick every 2 s since the workers started: several ticks, none claimed twice.
    expect(claims.length).toBeGreaterThanOrEqual(2);
    expect(new Set(claims).size).toBe(claims.length);
    expect(workers.every((w) => w.lines.some((l) => l.msg === 'worker: health and metrics on ' + `127.0.0.1:${w.port}`))).toBe(
      true,
    );
    // distributor@demo.test is the demo's one daily recipient: one mail for the day, whatever the ticks.
    const summaries = smtp.received.filter((m) => m.to.includes('distributor@demo.test') && /Daily/i.test(m.raw));
    expect(summaries).toHaveLength(1);
  });

  it("carries a request's id from the server into the worker that runs the job it queued", async () => {
    const requestId = `ops-trace-${crypto.randomBytes(6).toString('hex')}`;
    const auth = { Authorization: `Token ${token}`, 'content-type': 'application/json' };
    await fetch(`${serverA.base}/api/v1/addEmail`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ email: 'ops-trace@example.test', name: 'Ops' }),
    });
    // The recipient opens its confirmation link first (no report reaches an unconfirmed one).
    for (let i = 0; i < 100 && !confirmationPath(smtp.received, 'ops-trace@example.test'); i++) await sleep(100);
    expect((await fetch(`${serverA.base}${confirmationPath(smtp.received, 'ops-trace@example.test')}`)).status).toBe(200);
    const res = await fetch(`${serverA.base}/api/v1/emailReport`, {
      method: 'POST',
      headers: { ...auth, 'X-Request-Id': requestId },
      body: JSON.stringify({
        deviceSerials: ['SP240001'],
        startDate: '2026-03-01',
        endDate: '2026-03-08',
        emails: ['ops-trace@example.test'],
        requestId,
      }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const reports = () =>
      smtp.received.filter((m) => m.to.includes('ops-trace@example.test') && !/Confirm to receive/.test(m.raw));
    for (let i = 0; i < 100 && !reports().length; i++) await sleep(100);
    expect(reports()).toHaveLength(1);
    expect(serverA.lines.some((l) => l.requestId === requestId)).toBe(true);
    // The worker logs the job's end just after the SMTP server has the mail.
    const workerLines = () => workerProcs().flatMap((w) => w.lines.filter((l) => l.requestId === requestId));
    for (let i = 0; i < 50 && !workerLines().length; i++) await sleep(100);
    expect(workerLines().length).toBeGreaterThan(0);
    expect(await Promise.all(workerProcs().map((w) => metric(w, 'mails_total', 'outcome="sent"')))).toSatisfy(
      (n: number[]) => n.reduce((a, b) => a + b, 0) >= 2,
    );
  });

  it('a worker killed (SIGKILL) mid-job loses no job and sends no mail twice', async () => {
    const auth = { Authorization: `Token ${token}`, 'content-type': 'application/json' };
    const [w1, w2] = workerProcs() as [Proc, Proc];
    // Only a slow worker runs jobs: it holds each mail 60 s after the ledger claimed its job.
    w1.child.kill('SIGTERM');
    w2.child.kill('SIGTERM');
    expect(await Promise.all([w1.exited, w2.exited])).toEqual([0, 0]);
    const slow = await startWorker('slow worker', { OPS_TEST_MAIL_DELAY_MS: '60000' });
    await ready(slow);
    const emails = ['ops-kill-1@example.test', 'ops-kill-2@example.test', 'ops-kill-3@example.test'];
    await confirmedRecipients(emails);
    const requestId = `ops-kill-${crypto.randomBytes(6).toString('hex')}`;
    const res = await fetch(`${serverA.base}/api/v1/emailReport`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ deviceSerials: ['SP240001'], startDate: '2026-03-01', endDate: '2026-03-08', emails, requestId }),
    });
    expect(res.status).toBe(202);
    const held = () => slow.lines.filter((l) => /^job mail held .*ops-kill-/.test(l.msg ?? '')).length;
    for (let i = 0; i < 150 && held() < emails.length; i++) await sleep(100);
    expect(held()).toBe(emails.length);
    // Mid-job: the ledger says 'running' for all three, no mail has gone.
    slow.child.kill('SIGKILL');
    expect(await slow.exited).toBeNull();
    const sent = (email: string) => smtp.received.filter((m) => m.to.includes(email)).length;
    expect(emails.map(sent)).toEqual([0, 0, 0]);

    // The restarted worker finds the dead worker's jobs stalled (its locks expired) and runs them. It holds
    // each mail 1.5 s too, so the next test can stop it while it is in the middle of one.
    const restarted = await startWorker('restarted worker', { OPS_TEST_MAIL_DELAY_MS: '1500' });
    await ready(restarted);
    for (let i = 0; i < 200 && !emails.every((e) => sent(e) >= 1); i++) await sleep(100);
    // A little longer: a second copy would come now.
    await sleep(2_500);
    expect(emails.map(sent)).toEqual([1, 1, 1]);
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows } = await db.query<{ status: string; attempts: number }>(
      `select status, attempts from job_runs where idempotency_key like 'report-email:%' and idempotency_key like '%ops-kill-%'`,
    );
    await db.end();
    // Claimed by the killed worker, taken over once by the restarted one.
    expect(rows).toEqual(emails.map(() => ({ status: 'done', attempts: 2 })));
  });

  it('a worker told to stop (SIGTERM) while it holds a mail finishes that job: sent once, exit 0 within 10 s', async () => {
    const auth = { Authorization: `Token ${token}`, 'content-type': 'application/json' };
    // The only worker left is the restarted one, holding each mail 1.5 s before sending it.
    const worker = procs.at(-1)!;
    expect(worker.name).toBe('restarted worker');
    const email = 'ops-drain@example.test';
    await confirmedRecipients([email]);
    const res = await fetch(`${serverA.base}/api/v1/emailReport`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        deviceSerials: ['SP240001'],
        startDate: '2026-03-01',
        endDate: '2026-03-08',
        emails: [email],
        requestId: `ops-drain-${crypto.randomBytes(6).toString('hex')}`,
      }),
    });
    expect(res.status).toBe(202);
    const held = () => worker.lines.some((l) => (l.msg ?? '').startsWith('job mail held') && (l.msg ?? '').includes(email));
    for (let i = 0; i < 150 && !held(); i++) await sleep(100);
    expect(held()).toBe(true);
    const sent = () => smtp.received.filter((m) => m.to.includes(email)).length;
    expect(sent()).toBe(0);

    const stoppedAt = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // Sent by the worker before it exited, not left for another to run again.
    expect(sent()).toBe(1);

    // The pushes of the next test need a worker; a second copy would come from it now if the job had been cut.
    const next = await startWorker('worker after the drain');
    await ready(next);
    await sleep(1_500);
    expect(sent()).toBe(1);
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows } = await db.query<{ status: string; attempts: number }>(
      `select status, attempts from job_runs where idempotency_key like 'report-email:%' and idempotency_key like '%ops-drain@%'`,
    );
    await db.end();
    expect(rows).toEqual([{ status: 'done', attempts: 1 }]);
  });

  it('a browser on a server that restarts reconnects, resubscribes and receives a change pushed after the restart', async () => {
    type ApiDevice = {
      serial: string;
      location: unknown;
      is_online: boolean;
      is_registration: boolean;
      is_pause: boolean;
      is_warning: boolean;
    };
    const listed = async () =>
      (await (
        await fetch(`${serverB.base}/api/v1/device`, { headers: { Authorization: `Token ${token}` } })
      ).json()) as ApiDevice[];
    // An offline pin that a check-in turns into a normal one. The demo seeds its played devices online (issue 47:
    // no first-minute spike of offline pins), so one of them has missed its check-ins here: marked offline as
    // fleet health would mark it.
    const quiet = (d: ApiDevice) => d.location && !d.is_registration && !d.is_pause && !d.is_warning;
    const candidate = (await listed()).find((d) => quiet(d) && d.serial === 'SP240001') ?? (await listed()).find(quiet)!;
    expect(candidate).toBeDefined();
    if (candidate.is_online) {
      const db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      await db.query('update devices set is_online = false where serial = $1', [candidate.serial]);
      await db.end();
    }
    // The whole list is cached up to 2 s (docs/decisions/device-list.md).
    let target = (await listed()).find((d) => d.serial === candidate.serial)!;
    for (let i = 0; i < 50 && target.is_online; i++) {
      await sleep(200);
      target = (await listed()).find((d) => d.serial === candidate.serial)!;
    }
    expect(target.is_online).toBe(false);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: TEST_BROWSER_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: serverA.base })).newPage();
      // What the client sends: subscribes (over the WebSocket or long-polling) and its snapshot reads.
      const sent: { at: number; subscribe: boolean }[] = [];
      page.on('websocket', (ws) =>
        ws.on('framesent', (f) => sent.push({ at: Date.now(), subscribe: String(f.payload).includes('"subscribe"') })),
      );
      page.on('request', (r) => {
        if (r.url().includes('/socket.io/') && r.method() === 'POST')
          sent.push({ at: Date.now(), subscribe: (r.postData() ?? '').includes('"subscribe"') });
      });
      const pinReads: number[] = [];
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === '/api/v1/devicePins' && r.ok()) pinReads.push(Date.now());
      });
      await page.goto('/');
      await signInToMap(page, 'distributor@demo.test');
      const counts = async () => JSON.parse((await mapData(page)).pinCounts ?? '{}') as Record<string, number>;
      await expect.poll(() => sent.some((s) => s.subscribe)).toBe(true);
      const before = await counts();
      expect(before.offline).toBeGreaterThan(0);

      // Server A restarts on the same port (a deploy): SIGTERM, then the same command again.
      serverA.child.kill('SIGTERM');
      expect(await serverA.exited).toBe(0);
      const restartedAt = Date.now();
      serverA = start('server A (restarted)', 'start:server', serverA.port, { ...env, DATA_DIR: dataDir() });
      procs.push(serverA);
      await ready(serverA);
      // The client reconnects by itself (backoff from 1 s), subscribes again and re-reads its snapshot.
      await expect.poll(() => sent.some((s) => s.subscribe && s.at > restartedAt), { timeout: 30_000 }).toBe(true);
      await expect.poll(() => pinReads.some((at) => at > restartedAt), { timeout: 15_000 }).toBe(true);
      await sleep(500);
      expect(await counts()).toEqual(before);

      // The change, after the restart and through the other server: only a push can bring it.
      const secret = (
        await (
          await fetch(`${serverB.base}/api/v1/deviceSecret/${target.serial}`, {
            method: 'POST',
            headers: { Authorization: `Token ${token}` },
          })
        ).json()
      ).secret as string;
      const checkin = await fetch(`${serverB.base}/device/v1/checkin`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          Authorization: `Basic ${Buffer.from(`${target.serial}:${secret}`).toString('base64')}`,
        },
        body: JSON.stringify({ sentAt: new Date().toISOString(), signalQuality: 20 }),
      });
      expect(checkin.status).toBeLessThan(300);
      const readsBefore = pinReads.length;
      await expect.poll(async () => (await counts()).offline, { timeout: 10_000 }).toBe(before.offline! - 1);
      // Pushed, not re-read.
      expect(pinReads.length).toBe(readsBefore);
    } finally {
      await browser.close();
    }
  });

  it('SIGTERM mid-load: every accepted request is answered, sockets are told to reconnect, the process exits 0 within 10 s', async () => {
    const socket: Client = connect(serverB.base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const reason = new Promise<string>((resolve) => socket.on('disconnect', (r) => resolve(r)));
    const outcomes: (number | string)[] = [];
    const one = () =>
      new Promise<void>((resolve) => {
        const req = http.get(
          `${serverB.base}/api/v1/device`,
          { headers: { Authorization: `Token ${token}` }, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => {
              outcomes.push(res.statusCode!);
              resolve();
            });
            res.on('error', (e) => {
              outcomes.push(`broken ${e.message}`);
              resolve();
            });
          },
        );
        req.on('error', (e: NodeJS.ErrnoException) => {
          outcomes.push(e.code ?? e.message);
          resolve();
        });
      });
    const load: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) load.push(one());
    await sleep(30);
    const killedAt = Date.now();
    serverB.child.kill('SIGTERM');
    // Requests keep coming after the signal: refused at the door, never accepted and dropped.
    for (let i = 0; i < 10; i++) {
      load.push(one());
      await sleep(20);
    }
    await Promise.all(load);
    const code = await serverB.exited;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(code).toBe(0);
    const failed = outcomes.filter((o) => o !== 200 && o !== 'ECONNREFUSED');
    expect(failed).toEqual([]);
    expect(outcomes.filter((o) => o === 200).length).toBeGreaterThanOrEqual(20);
    // A transport close (the client reconnects, through a proxy to another replica), not a server disconnect.
    expect(await reason).toBe('transport close');
    expect(serverB.lines.some((l) => /^shutdown: done in/.test(l.msg ?? ''))).toBe(true);
    socket.close();
  });
});
