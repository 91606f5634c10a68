import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullmqQueue, inProcessQueue, jobs, type JobDefinition } from '@fleet/workers';
import { z } from 'zod';
import { deviceGroups, devices, jobRuns, pumpEvents, users } from '../../server/src/db/schema.ts';
import { dbJobLedger } from '../../server/src/jobs/job-ledger.ts';
import { enqueueSummaries, summaryWindow } from '../../server/src/jobs/report-schedules.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { mailText } from '../helpers/smtp.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

const redisUp = await redisAvailable();

describe('report mails as queued jobs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite');
  });
  afterAll(async () => {
    await h?.close();
  });
  const mailer = () => createMailer({ smtpUrl: h.smtp.url, from: 'Portal <p@x.test>', outboxDir: path.join(h.dataDir, 'out') });

  it('summarises yesterday per site in each subscriber scope, once however often it is queued', async () => {
    const queue = inProcessQueue(jobs, { mailer: mailer() }, dbJobLedger(h.database.db));
    const now = new Date();
    const before = h.smtp.received.length;
    const n = await enqueueSummaries(h.database.db, queue, 'daily', now);
    await enqueueSummaries(h.database.db, queue, 'daily', now);
    await queue.drain();
    const subscribed = await h.database.db.select().from(users).where(eq(users.notifyDailyDispensation, true));
    expect(n).toBe(subscribed.filter((u) => u.activated).length);
    expect(n).toBeGreaterThan(0);
    const mails = h.smtp.received.slice(before);
    expect(mails).toHaveLength(n);
    const text = mailText(mails[0]!.raw);
    // The demo sites are in America/Chicago: 'yesterday' is theirs (not UTC's, which differs after 18:00 there).
    const { from } = summaryWindow('daily', now, 'America/Chicago');
    expect(text).toContain(`Daily dispensation`);
    expect(text).toContain(from);
    expect(text).toMatch(/Audubon Park: \d+ dispenses on 8 devices/);
  });

  it("counts each site's own yesterday in its zone, with the figures the report builder gives", async () => {
    const db = h.database.db;
    const queue = inProcessQueue(jobs, { mailer: mailer() }, dbJobLedger(db));
    const device = async (serial: string) => (await db.select().from(devices).where(eq(devices.serial, serial)))[0]!;
    const audubon = await device('SP240001'); // Audubon Park (8 devices), moved to Honolulu for this test
    const jazz = await device('SP240009'); // Jazz & Heritage Festival, America/Chicago like every other site
    const saved = await db
      .select()
      .from(deviceGroups)
      .where(inArray(deviceGroups.id, [audubon.groupId!, jazz.groupId!]));
    const dispense = (deviceId: number, ...at: string[]) =>
      db.insert(pumpEvents).values(at.map((t) => ({ deviceId, pumpNumber: 1, occurredAt: new Date(t), volumeMl: 29.5735 })));
    try {
      await db.update(deviceGroups).set({ timezoneId: 'Pacific/Honolulu' }).where(eq(deviceGroups.id, audubon.groupId!));
      await db.update(deviceGroups).set({ timezoneId: 'America/Chicago' }).where(eq(deviceGroups.id, jazz.groupId!));
      await db.update(devices).set({ leftPumpType: 'Sunscreen' }).where(eq(devices.id, audubon.id));
      await db.update(devices).set({ leftPumpType: 'Sanitizer' }).where(eq(devices.id, jazz.id));
      // At 07:00 UTC on 10 June it is 02:00 on the 10th in Chicago (yesterday: the 9th) and 21:00 on the 9th
      // in Honolulu (yesterday: the 8th). Honolulu's 8th is 10:00Z..10:00Z; Chicago's 9th 05:00Z..05:00Z.
      await dispense(audubon.id, '2026-06-08T09:59:00Z', '2026-06-08T10:00:00Z', '2026-06-09T09:59:00Z', '2026-06-09T10:00:00Z');
      await dispense(jazz.id, '2026-06-09T04:59:00Z', '2026-06-09T05:00:00Z', '2026-06-10T04:59:00Z', '2026-06-10T05:00:00Z');
      const before = h.smtp.received.length;
      expect(await enqueueSummaries(db, queue, 'daily', new Date('2026-06-10T07:00:00Z'))).toBe(1);
      await queue.drain();
      const mails = h.smtp.received.slice(before);
      expect(mails).toHaveLength(1);
      const text = mailText(mails[0]!.raw);
      expect(text).toContain('Daily dispensation: 4 dispenses (2026-06-09)');
      expect(text).toContain('Yesterday your devices dispensed 4 times: 2.0 fl.oz. of sunscreen and 2.0 fl.oz. of sanitiser.');
      expect(text).toContain(
        '- Audubon Park: 2 dispenses on 8 devices (sunscreen 2.0 fl.oz., sanitiser 0.0 fl.oz.), 2026-06-08 in its time zone',
      );
      expect(text).toMatch(
        /- Jazz & Heritage Festival: 2 dispenses on \d+ devices \(sunscreen 0\.0 fl\.oz\., sanitiser 2\.0 fl\.oz\.\)\r?\n/,
      );
    } finally {
      for (const g of saved) await db.update(deviceGroups).set({ timezoneId: g.timezoneId }).where(eq(deviceGroups.id, g.id));
      await db.update(devices).set({ leftPumpType: audubon.leftPumpType }).where(eq(devices.id, audubon.id));
      await db.update(devices).set({ leftPumpType: jazz.leftPumpType }).where(eq(devices.id, jazz.id));
    }
  });

  it('reads yesterday and last week in the given zone', () => {
    // 03:00 UTC on Monday 23 November is still Sunday the 22nd in Chicago.
    expect(summaryWindow('daily', new Date('2026-11-23T03:00:00Z'), 'America/Chicago')).toEqual({
      from: '2026-11-21',
      until: '2026-11-21',
    });
    expect(summaryWindow('weekly', new Date('2026-11-23T03:00:00Z'), 'America/Chicago')).toEqual({
      from: '2026-11-09',
      until: '2026-11-15',
    });
    expect(summaryWindow('weekly', new Date('2026-11-23T03:00:00Z'))).toEqual({ from: '2026-11-16', until: '2026-11-22' });
  });

  it('weeks run Monday to Sunday', () => {
    expect(summaryWindow('weekly', new Date('2026-11-22T12:00:00Z'))).toEqual({ from: '2026-11-09', until: '2026-11-15' });
    expect(summaryWindow('weekly', new Date('2026-11-23T12:00:00Z'))).toEqual({ from: '2026-11-16', until: '2026-11-22' });
    expect(summaryWindow('daily', new Date('2026-11-22T00:30:00Z'))).toEqual({ from: '2026-11-21', until: '2026-11-21' });
  });

  it('refuses a payload that does not fit its schema at enqueue', async () => {
    const queue = inProcessQueue(jobs, { mailer: mailer() }, dbJobLedger(h.database.db));
    await expect(queue.enqueue('dispensation-summary', { to: 'not-an-email' })).rejects.toThrow();
    await expect(queue.enqueue('no-such-job' as never, {})).rejects.toThrow(/no processor/);
  });

  it('skips a key another runner holds, unless the queue says that runner died (takeOver)', async () => {
    const ledger = dbJobLedger(h.database.db);
    const key = `test:takeover:${crypto.randomBytes(4).toString('hex')}`;
    expect(await ledger.begin(key, 'report-email')).toBe('run');
    // Live elsewhere: a second begin skips; a stalled job handed out again takes it; a done key never runs again.
    expect(await ledger.begin(key, 'report-email')).toBe('skip');
    expect(await ledger.begin(key, 'report-email', { takeOver: true })).toBe('run');
    const [run] = await h.database.db.select().from(jobRuns).where(eq(jobRuns.idempotencyKey, key));
    expect(run).toMatchObject({ status: 'running', attempts: 2 });
    await ledger.done(key);
    expect(await ledger.begin(key, 'report-email', { takeOver: true })).toBe('skip');
  });

  describe.skipIf(!redisUp)('on BullMQ with two workers', () => {
    it('retries a failing job and never sends a mail twice', async () => {
      const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
      let calls = 0;
      const sent: string[] = [];
      const flaky: JobDefinition<z.ZodType<{ to: string }>, { sent: string[] }> = {
        schema: z.object({ to: z.string() }),
        backoffMs: 50,
        async process(p, deps) {
          calls += 1;
          if (calls === 1) throw new Error('SMTP hiccup');
          deps.sent.push(p.to);
        },
      };
      const defs = { flaky };
      const ledger = dbJobLedger(h.database.db);
      const a = bullmqQueue(defs, { sent }, ledger, { redisUrl: TEST_REDIS_URL, prefix, queueName: 'mails' });
      const b = bullmqQueue(defs, { sent }, ledger, { redisUrl: TEST_REDIS_URL, prefix, queueName: 'mails' });
      try {
        const key = `test:${prefix}:once`;
        await a.enqueue('flaky', { to: 'ops@demo.test' }, { idempotencyKey: key });
        await b.enqueue('flaky', { to: 'ops@demo.test' }, { idempotencyKey: key });
        await a.drain();
        await new Promise((r) => setTimeout(r, 300));
        expect(sent).toEqual(['ops@demo.test']);
        expect(calls).toBe(2);
        const [run] = await h.database.db.select().from(jobRuns).where(eq(jobRuns.idempotencyKey, key));
        expect(run).toMatchObject({ status: 'done', attempts: 2 });
        // Queued again later (the job long gone from Redis): the ledger still says done.
        await b.enqueue('flaky', { to: 'ops@demo.test' }, { idempotencyKey: key });
        await b.drain();
        expect(sent).toEqual(['ops@demo.test']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('closes once its running job is done, and within its bound when a job outlasts it', async () => {
      const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
      const events: string[] = [];
      let release: () => void = () => undefined;
      const slow: JobDefinition<z.ZodType<{ ms: number }>, { events: string[] }> = {
        schema: z.object({ ms: z.number() }),
        async process(p, deps) {
          deps.events.push('started');
          await new Promise<void>((r) => {
            release = r;
            setTimeout(r, p.ms);
          });
          deps.events.push('finished');
        },
      };
      const logged: string[] = [];
      const log = (m: string) => void logged.push(m);
      const ledger = dbJobLedger(h.database.db);
      // A job of 600 ms under a 5 s bound: close waits for it, and it is done (recorded) when close returns.
      const a = bullmqQueue({ slow }, { events }, ledger, {
        redisUrl: TEST_REDIS_URL,
        prefix,
        queueName: 'slow',
        closeTimeoutMs: 5_000,
        log,
      });
      const key = `test:${prefix}:slow`;
      await a.enqueue('slow', { ms: 600 }, { idempotencyKey: key });
      await expect.poll(() => events).toEqual(['started']);
      await a.close();
      expect(events).toEqual(['started', 'finished']);
      const [run] = await h.database.db.select().from(jobRuns).where(eq(jobRuns.idempotencyKey, key));
      expect(run).toMatchObject({ status: 'done' });
      expect(logged.filter((m) => /still running|did not close/.test(m))).toEqual([]);
      // BullMQ recorded its end too: nothing is left active in Redis to be handed out again as stalled.
      const check = bullmqQueue({ slow }, { events }, ledger, {
        redisUrl: TEST_REDIS_URL,
        prefix,
        queueName: 'slow',
        runWorker: false,
      });
      expect(await check.depth()).toMatchObject({ active: 0, waiting: 0 });
      await check.close();
      // A job of a minute under a 300 ms bound: close returns after the bound and says so.
      events.length = 0;
      const b = bullmqQueue({ slow }, { events }, ledger, {
        redisUrl: TEST_REDIS_URL,
        prefix,
        queueName: 'slow',
        closeTimeoutMs: 300,
        log,
      });
      await b.enqueue('slow', { ms: 60_000 });
      await expect.poll(() => events).toEqual(['started']);
      const started = Date.now();
      await b.close();
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(logged).toContain('queue worker: 1 job(s) still running after 300 ms, closing anyway');
      release();
    });

    it('closes within its bound when Redis is unreachable, and stops reconnecting (BullMQ alone never returned)', async () => {
      // A port nothing listens on: a server that went away.
      const port = await new Promise<number>((resolve) => {
        const srv = net.createServer().listen(0, '127.0.0.1', () => {
          const { port: p } = srv.address() as net.AddressInfo;
          srv.close(() => resolve(p));
        });
      });
      const errors: string[] = [];
      const q = bullmqQueue(jobs, { mailer: mailer() }, dbJobLedger(h.database.db), {
        redisUrl: `redis://127.0.0.1:${port}`,
        closeTimeoutMs: 1_000,
        log: (m) => void errors.push(m),
      });
      await expect.poll(() => errors.length).toBeGreaterThan(0); // it has tried and failed to connect
      const started = Date.now();
      await q.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      // Nothing retries after the close: no connection error is reported any more.
      const after = errors.length;
      await new Promise((r) => setTimeout(r, 2_500));
      expect(errors.length).toBe(after);
    });

    it('sends the summary mails through BullMQ to the SMTP server', async () => {
      const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
      const q = bullmqQueue(jobs, { mailer: mailer() }, dbJobLedger(h.database.db), { redisUrl: TEST_REDIS_URL, prefix });
      try {
        const before = h.smtp.received.length;
        const n = await enqueueSummaries(h.database.db, q, 'weekly', new Date());
        await q.drain();
        await new Promise((r) => setTimeout(r, 200));
        expect(n).toBeGreaterThan(0);
        expect(h.smtp.received.length - before).toBe(n);
        expect(mailText(h.smtp.received.at(-1)!.raw)).toContain('Weekly report');
      } finally {
        await q.close();
      }
    });
  });
});
