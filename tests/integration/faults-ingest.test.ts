import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/client.ts';
import { backends, TEST_DATABASE_URL } from '../helpers/backends.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * Promise: an acknowledged check-in is never lost, even when the server is killed mid-ingest. The portal
 * runs as its own process (`npm start`'s all-in-one role, on PGlite files or on a fresh PostgreSQL
 * database); devices upload dispenses as fast as the server answers; SIGKILL lands while uploads are in
 * flight; after a restart on the same data every dispense the server answered 200 for is stored, once.
 * The devices then upload everything again (a device resends what it never saw acknowledged) and
 * nothing is counted twice.
 */
const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SERIALS = ['SP240001', 'SP240002', 'SP240003', 'SP240004'];
const PER_CHECKIN = 10;

type Proc = { child: ChildProcess; exited: Promise<number | null>; output: string[] };

function startPortal(env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  return { child, output, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

async function ready(p: Proc, base: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (p.child.exitCode !== null) throw new Error(`portal exited with ${p.child.exitCode}: ${p.output.join('').slice(-2000)}`);
    // Its own log says it listens before its /readyz counts: another server answering on the port would not be it.
    try {
      if (p.output.join('').includes('listening on') && (await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`portal not ready within ${timeoutMs} ms: ${p.output.join('').slice(-2000)}`);
}

describe.each(await backends())('a server killed mid-ingest loses no acknowledged check-in (%s)', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-kill-'));
  const dbName = `kill_${crypto.randomBytes(5).toString('hex')}`;
  const dbUrl = (() => {
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const admin = backend === 'postgres' ? new pg.Client({ connectionString: TEST_DATABASE_URL }) : undefined;
  let current: Proc | undefined;

  afterAll(async () => {
    if (current && current.child.exitCode === null) current.child.kill('SIGKILL');
    await current?.exited;
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('stores every dispense answered 200 before the SIGKILL, and a full resend after the restart counts none twice', async () => {
    if (admin) {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SECRET_KEY: crypto.randomBytes(24).toString('hex'),
      SIMULATOR: 'off',
      SEED_HISTORY_DAYS: '1',
      LOG_FORMAT: 'json',
      ...(backend === 'postgres' ? { DATABASE_URL: dbUrl } : {}),
    };
    current = startPortal(env);
    await ready(current, base);

    const login = await fetch(`${base}/auth/token/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
    });
    const token = ((await login.json()) as { auth_token: string }).auth_token;
    const secrets = new Map<string, string>();
    for (const serial of SERIALS) {
      const r = await fetch(`${base}/api/v1/deviceSecret/${serial}`, {
        method: 'POST',
        headers: { Authorization: `Token ${token}` },
      });
      expect(r.status).toBe(200);
      secrets.set(serial, ((await r.json()) as { secret: string }).secret);
    }

    // Every check-in a device made, and which of them the server acknowledged.
    const sent: { serial: string; body: string; seqs: number[] }[] = [];
    const acked = new Set<string>();
    const checkin = (serial: string, body: string) =>
      fetch(`${base}/device/v1/checkin`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          Authorization: `Basic ${Buffer.from(`${serial}:${secrets.get(serial)}`).toString('base64')}`,
        },
        body,
      });
    let stop = false;
    const device = async (serial: string) => {
      for (let n = 0; !stop; n++) {
        const seqs = Array.from({ length: PER_CHECKIN }, (_, i) => 1_000_000 + n * PER_CHECKIN + i);
        const at = new Date(Date.now() - 60_000).toISOString();
        const body = JSON.stringify({
          sentAt: new Date().toISOString(),
          dispenses: seqs.map((seq) => ({ seq, pump: 1, at, ml: 1.5 })),
        });
        sent.push({ serial, body, seqs });
        try {
          const r = await checkin(serial, body);
          if (r.status === 200) for (const seq of seqs) acked.add(`${serial}:${seq}`);
        } catch {
          return; // the server is gone
        }
      }
    };
    const load = Promise.all(SERIALS.map(device));
    // Kill while uploads are in flight, once a fair number were acknowledged (a quiet host gets there in a
    // second or two; three test files at a time on two cores have taken 40 s over this whole test).
    for (const until = Date.now() + 60_000; Date.now() < until && acked.size < 400;) await sleep(50);
    current.child.kill('SIGKILL');
    await current.exited;
    stop = true;
    await load;
    expect(acked.size).toBeGreaterThanOrEqual(400);
    // Some uploads were cut off unanswered: the kill did land mid-ingest.
    expect(sent.length * PER_CHECKIN).toBeGreaterThan(acked.size);

    // Restart on the same data; the devices resend everything they ever sent.
    current = startPortal(env);
    await ready(current, base);
    for (const s of sent) expect((await checkin(s.serial, s.body)).status).toBe(200);
    current.child.kill('SIGTERM');
    expect(await current.exited).toBe(0);

    const database = await openDatabase(
      backend === 'postgres' ? { url: dbUrl, migrate: false } : { dataDir: path.join(dataDir, 'pgdata'), migrate: false },
    );
    try {
      const rows = await database.db.execute<{ serial: string; seq: string | number; copies: string | number }>(sql`
        select d.serial, e.seq, count(*) as copies from pump_events e join devices d on d.id = e.device_id
        where e.seq >= 1000000 group by d.serial, e.seq`);
      const list = (rows as unknown as { rows?: typeof rows }).rows ?? rows;
      const stored = new Map(
        (list as unknown as { serial: string; seq: string | number; copies: string | number }[]).map((r) => [
          `${r.serial}:${Number(r.seq)}`,
          Number(r.copies),
        ]),
      );
      const lost = [...acked].filter((key) => !stored.has(key));
      expect(lost, 'acknowledged dispenses missing after the kill').toEqual([]);
      // Every dispense ever sent is stored exactly once after the resend.
      const every = new Set(sent.flatMap((s) => s.seqs.map((seq) => `${s.serial}:${seq}`)));
      expect(stored.size).toBe(every.size);
      expect([...stored.values()].every((copies) => copies === 1)).toBe(true);
    } finally {
      await database.close();
    }
  }, 240_000);
});
