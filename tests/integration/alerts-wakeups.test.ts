import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_DEFAULTS, type IncidentNotice } from '@fleet/shared';
import { bullmqWakeups, timerWakeups, type Wakeups } from '@fleet/workers';
import { alertsFeature, type AlertsOptions } from '../../server/src/alerts/index.ts';
import { alertsRepository } from '../../server/src/alerts/alerts.repository.ts';
import { postgresAvailable } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { redisServerInstalled, startRedisServer, stopRedisServer } from '../helpers/redis.ts';

/**
 * Wake-ups of alerts (issue 43: "Delays and escalations are queued jobs: BullMQ delayed jobs in the scaled
 * run, and the same processors in process by default"). An incident opened now with an escalation policy of
 * M = 3 s (a policy row in seconds; the API takes whole minutes) escalates within 2 s of its due time with
 * the minute job off: the wake-up alone brings it. On Redis, the delayed job is lost when Redis restarts
 * empty; the process re-arms its wake-ups from the rows when Redis is back, so nothing due is lost.
 *
 * The Redis here is the test's OWN redis-server on a spare port of 19400-19499 (never the shared one),
 * without persistence, killed and restarted by the test.
 */
const PG = await postgresAvailable();
const REDIS_SERVER = redisServerInstalled();
const M_SECONDS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
/** A free port of 19400-19499 (this suite's range on the shared host). */
async function sparePort(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = 19400 + Math.floor(Math.random() * 100);
    if (await portFree(port)) return port;
  }
  throw new Error('no free port in 19400-19499');
}

type Row = Record<string, unknown>;

describe.each([
  { name: 'in process (timers, PGlite)', backend: 'pglite' as const, redis: false, skip: false },
  { name: 'BullMQ delayed jobs (Redis, PostgreSQL)', backend: 'postgres' as const, redis: true, skip: !PG || !REDIS_SERVER },
])('escalation wake-ups $name', ({ backend, redis: withRedis, skip }) => {
  let h: Harness;
  let redis: ChildProcess | undefined;
  let redisPort = 0;
  let wakeups: Wakeups;
  let stop: () => Promise<void> = async () => undefined;
  const inApp: { userId: number; payload: IncidentNotice & { notificationId: number }; at: number }[] = [];
  const rows = async <T = Row>(q: ReturnType<typeof sql>) => ((await h.database.db.execute(q)) as unknown as { rows: T[] }).rows;
  let oncall = 0;
  let devices: { id: number; serial: string }[] = [];
  /** Warns a device's low battery: its incident, and when its escalation falls due. */
  let raise: (serial: string) => Promise<{ id: number; dueAt: number }> = async () => ({ id: 0, dueAt: 0 });

  beforeAll(async () => {
    if (skip) return;
    h = await startHarness(backend);
    if (withRedis) {
      redisPort = await sparePort();
      redis = await startRedisServer(redisPort);
      wakeups = bullmqWakeups({
        redisUrl: `redis://127.0.0.1:${redisPort}`,
        prefix: `alerts-wake-${crypto.randomBytes(3).toString('hex')}:bull`,
        queueName: 'fleet-alerts',
        log: () => undefined,
      });
    } else wakeups = timerWakeups(() => undefined);
    // A quiet fleet: only the devices the test warns raise anything.
    await h.database.db.execute(
      sql`update devices set warning_lists = '[]'::jsonb, is_online = true, last_seen_at = now(), batch_id = null, batch2_id = null`,
    );
    const [dist] = await rows<{ id: number; company: string; password_hash: string }>(
      sql`select id, company, password_hash from users where email = 'distributor@demo.test'`,
    );
    oncall = Number(
      (
        await rows<{ id: number }>(
          sql`insert into users (email, username, password_hash, company, phone, role, user_type, activated) values ('oncall-wake@demo.test', 'On Call', ${dist!.password_hash}, ${dist!.company}, '+15045550198', 'distributor', 'distributor', true) returning id`,
        )
      )[0]!.id,
    );
    // The organisation's policy with M in seconds (the stored policy is in minutes; the API's minimum is 1).
    await alertsRepository(h.database.db).savePolicy(
      dist!.company.trim().toLowerCase(),
      { afterMinutes: M_SECONDS / 60, repeatMinutes: 60, steps: [{ userId: oncall, channels: ['inApp'] }] },
      Number(dist!.id),
      new Date(),
    );
    // Devices of different sites: each warning opens its own incident.
    devices = (
      await rows<{ id: number; serial: string }>(
        sql`select distinct on (group_id) id, serial from devices where group_id is not null order by group_id, id limit 2`,
      )
    ).map((d) => ({ id: Number(d.id), serial: d.serial }));
    const feature = alertsFeature({
      db: h.database.db,
      settings: ALERT_DEFAULTS,
      now: () => new Date(),
      publicUrl: 'http://portal.test',
      vapid: undefined,
      smsOutboxDir: path.join(h.dataDir, 'sms'),
      mailQueue: (h.app as unknown as { queue: AlertsOptions['mailQueue'] }).queue,
      emitToUser: (userId, payload) => void inApp.push({ userId, payload, at: Date.now() }),
      log: () => undefined,
      wakeups,
    });
    // The minute job is off (fleet: false): only a wake-up escalates. The 1 s dispatch poll stays.
    stop = feature.start({ fleet: false });
    raise = async (serial) => {
      await h.database.db.execute(sql`update devices set warning_lists = '["BATTERY"]'::jsonb where serial = ${serial}`);
      await feature.engine.evaluateWarnings([serial]);
      const [i] = await rows<{ id: number; opened_at: Date | string }>(
        sql`select i.id, i.opened_at from incidents i join alerts a on a.incident_id = i.id join devices d on d.id = a.device_id where d.serial = ${serial} order by i.id desc limit 1`,
      );
      return { id: Number(i!.id), dueAt: new Date(i!.opened_at).getTime() + M_SECONDS * 1000 };
    };
  }, 180_000);
  afterAll(async () => {
    await stop().catch(() => undefined);
    if (redis) await stopRedisServer(redis);
    await h?.close();
  });

  /** The incident's escalation: when it was recorded, and the on-call's in-app notice of it. */
  async function escalated(incidentId: number, timeoutMs: number) {
    const started = Date.now();
    for (;;) {
      const [e] = await rows<{ at: Date | string }>(
        sql`select at from incident_events where incident_id = ${incidentId} and kind = 'escalated' order by id limit 1`,
      );
      const notice = inApp.find((n) => n.userId === oncall && n.payload.id === incidentId && n.payload.kind === 'escalated');
      if (e && notice) return { at: new Date(e.at).getTime(), notice };
      if (Date.now() - started > timeoutMs) return null;
      await sleep(100);
    }
  }

  it.skipIf(skip)(
    `escalates within 2 s of M = ${M_SECONDS} s with the minute job off`,
    async () => {
      const incident = await raise(devices[0]!.serial);
      const e = await escalated(incident.id, (M_SECONDS + 10) * 1000);
      expect(e, 'escalated').not.toBeNull();
      expect(e!.at).toBeGreaterThanOrEqual(incident.dueAt);
      expect(e!.at - incident.dueAt).toBeLessThan(2000);
      // The in-app notice reached the on-call within the same 2 s (the escalation woke the dispatcher).
      expect(e!.notice.at - incident.dueAt).toBeLessThan(2000);
      // Recorded as sent once the channel answered (just after the notice went out).
      const sentRows = () =>
        rows<{ n: number }>(
          sql`select count(*)::int as n from notifications where incident_id = ${incident.id} and kind = 'esc0' and status = 'sent'`,
        );
      for (let i = 0; i < 50 && (await sentRows())[0]!.n === 0; i++) await sleep(100);
      expect((await sentRows())[0]!.n).toBe(1);
    },
    30_000,
  );

  it.skipIf(skip || !withRedis)(
    'loses nothing due when Redis restarts empty: the wake-up is re-armed from the rows when Redis is back',
    async () => {
      const incident = await raise(devices[1]!.serial);
      // The delayed job is in Redis now; Redis dies with it and comes back empty.
      await sleep(200);
      await stopRedisServer(redis!);
      await sleep(1000);
      redis = await startRedisServer(redisPort);
      const e = await escalated(incident.id, (M_SECONDS + 15) * 1000);
      expect(e, 'escalated after the restart').not.toBeNull();
      expect(e!.at).toBeGreaterThanOrEqual(incident.dueAt);
      // Reconnecting takes up to ioredis's retry delay (at most 2 s) after Redis is back.
      expect(e!.at - incident.dueAt).toBeLessThan(4000);
      const escalations = () =>
        rows<{ kind: string; status: string }>(
          sql`select kind, status from notifications where incident_id = ${incident.id} and user_id = ${oncall} and kind like 'esc%'`,
        );
      for (let i = 0; i < 50 && (await escalations()).some((r) => r.status !== 'sent'); i++) await sleep(100);
      const sent = await escalations();
      expect(sent).toEqual([{ kind: 'esc0', status: 'sent' }]);
      expect(
        inApp.filter((n) => n.userId === oncall && n.payload.id === incident.id && n.payload.kind === 'escalated'),
      ).toHaveLength(1);
    },
    40_000,
  );
});
