import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_DEFAULTS, CHANNELS } from '@fleet/shared';
import { alertsFeature, type ChannelSet } from '../../server/src/alerts/index.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Issue 43: "A SIGKILL between raise and send loses nothing and duplicates nothing", literally. A child
 * process (node --import tsx) on the harness's PostgreSQL schema raises a low-battery incident (its
 * notifications recorded as outbox rows in the raise's transaction), claims them in its dispatcher, and is
 * SIGKILLed while its channels' send hangs (the child's own channels: a send that never answers, so the
 * kill lands between the raise and the send). A new process's dispatcher, once the claim's lease ran out,
 * delivers each notice exactly once per recipient and channel; a second pass delivers nothing.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pg = await postgresAvailable();

/** The child: plain ESM (tsx loads the TypeScript it imports); its channels print SENDING and hang. */
const CHILD = `
const { openDatabase } = await import(${JSON.stringify(path.join(root, 'server/src/db/client.ts'))});
const { alertsFeature } = await import(${JSON.stringify(path.join(root, 'server/src/alerts/index.ts'))});
const { ALERT_DEFAULTS, CHANNELS } = await import('@fleet/shared');
const database = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema: process.env.TEST_SCHEMA, migrate: false });
const hang = { send: () => { process.stdout.write('SENDING\\n'); return new Promise(() => {}); } };
const f = alertsFeature({
  db: database.db, settings: ALERT_DEFAULTS, now: () => new Date(), publicUrl: 'http://portal.test', vapid: undefined,
  smsOutboxDir: process.env.SMS_DIR, mailQueue: { enqueue: async () => undefined }, emitToUser: () => undefined,
  log: () => undefined, channels: Object.fromEntries(CHANNELS.map((c) => [c, hang])),
});
const recorded = await f.engine.evaluateWarnings([process.env.SERIAL]);
process.stdout.write('RAISED ' + recorded + '\\n');
await f.engine.dispatch();
`;

describe.skipIf(!pg)('alerts: SIGKILL between raise and send (PostgreSQL, a real child process)', () => {
  let h: Harness;
  const rows = async <T>(q: ReturnType<typeof sql>) => ((await h.database.db.execute(q)) as unknown as { rows: T[] }).rows;
  beforeAll(async () => {
    h = await startHarness('postgres');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a new process delivers each notice exactly once after the raising process is killed mid-send', async () => {
    const [{ schema } = { schema: '' }] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    expect(schema).toMatch(/^t_/); // the harness's own schema, never the shared database's default
    const [d] = await rows<{ id: number; serial: string }>(
      sql`select id, serial from devices where group_id is not null order by id limit 1`,
    );
    await h.database.db.execute(sql`update devices set warning_lists = '["BATTERY"]'::jsonb where id = ${d!.id}`);
    const smsDir = path.join(h.dataDir, 'sms');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TEST_DATABASE_URL,
        TEST_SCHEMA: schema,
        SERIAL: d!.serial,
        SMS_DIR: smsDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const deadline = Date.now() + 60_000;
    while (!out.includes('SENDING') && child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(out).toMatch(/RAISED [1-9]\d*\nSENDING/);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const [incident] = await rows<{ id: number }>(
      sql`select distinct a.incident_id as id from alerts a where a.device_id = ${d!.id} and a.condition = 'BATTERY'`,
    );
    // Recorded, claimed by the dead process, none sent.
    const before = await rows<{ status: string; claimed: boolean }>(
      sql`select status, claimed_until is not null as claimed from notifications where incident_id = ${incident!.id}`,
    );
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.status === 'pending')).toBe(true);
    expect(before.some((r) => r.claimed)).toBe(true);

    // A new process (this one, a new dispatcher): after the dead process's lease (60 s) ran out.
    const sent: string[] = [];
    const counting = {
      send: async (n: { userId?: number; channel?: string; key?: string }) => (sent.push(JSON.stringify(n)), 'sent' as const),
    };
    const later = () => new Date(Date.now() + 2 * 60_000);
    const f = alertsFeature({
      db: h.database.db,
      settings: ALERT_DEFAULTS,
      now: later,
      publicUrl: 'http://portal.test',
      vapid: undefined,
      smsOutboxDir: smsDir,
      mailQueue: { enqueue: async () => undefined },
      emitToUser: () => undefined,
      log: () => undefined,
      channels: Object.fromEntries(CHANNELS.map((c) => [c, counting])) as unknown as ChannelSet,
    });
    await f.engine.dispatch();
    await f.engine.dispatch();
    const after = await rows<{ user_id: number; channel: string; kind: string; status: string; n: number }>(
      sql`select user_id, channel, kind, status, count(*)::int as n from notifications where incident_id = ${incident!.id} group by 1, 2, 3, 4`,
    );
    expect(after.every((r) => r.status === 'sent' && r.n === 1)).toBe(true);
    expect(after).toHaveLength(before.length);
    expect(sent).toHaveLength(before.length);
    fs.rmSync(smsDir, { recursive: true, force: true });
  });
});
