import { and, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchConsumption,
  batches,
  batteryReadings,
  devices,
  pendingChanges,
  pumpEvents,
  smsLog,
} from '../../server/src/db/schema.ts';
import { checkFleetHealth } from '../../server/src/jobs/fleet-health.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

describe.each(BACKENDS)('device gateway on %s', (backend) => {
  let h: Harness;
  let admin = '';
  let secret = '';
  const SERIAL = 'SP240002';
  beforeAll(async () => {
    h = await startHarness(backend);
    admin = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
    secret = (await request(h.app).post(`/api/v1/deviceSecret/${SERIAL}`).set('Authorization', `Token ${admin}`)).body.secret;
  });
  afterAll(async () => {
    await h?.close();
  });

  const basic = (serial: string, s: string) => `Basic ${Buffer.from(`${serial}:${s}`).toString('base64')}`;
  const checkin = (body: object, auth = basic(SERIAL, secret)) =>
    request(h.app).post('/device/v1/checkin').set('Authorization', auth).send(body);
  const device = async () => (await h.database.db.select().from(devices).where(eq(devices.serial, SERIAL)))[0]!;
  const events = async () =>
    (
      await h.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(pumpEvents)
        .where(eq(pumpEvents.deviceId, (await device()).id))
    )[0]!.n;
  const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
  const body = (over: object = {}) => ({ sentAt: new Date().toISOString(), ...over });

  it('rotating a secret is for distributors only, and the secret is stored hashed', async () => {
    expect(secret).toMatch(/^[0-9a-f]{48}$/);
    expect((await device()).secretHash).not.toContain(secret);
    const client = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' }))
      .body.auth_token;
    expect((await request(h.app).post(`/api/v1/deviceSecret/${SERIAL}`).set('Authorization', `Token ${client}`)).status).toBe(
      403,
    );
  });

  it.each([
    ['a wrong secret', () => basic(SERIAL, 'wrong-secret')],
    ['another device serial', () => basic('SP240003', secret)],
    ['no credentials', () => ''],
    ['a token instead', () => `Token ${admin}`],
    ['a serial with a NUL', () => basic(`${SERIAL}\0x`, secret)],
    ['a serial with a quote', () => basic(`${SERIAL}' or '1'='1`, secret)],
  ])('refuses %s with 401 and stores nothing', async (_n, auth) => {
    const before = await events();
    const res = await checkin(body({ dispenses: [{ seq: 1, pump: 1, at: ago(5), ml: 2.4 }] }), auth());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid device credentials.' });
    expect(await events()).toBe(before);
  });

  it('refuses text PostgreSQL cannot store (a NUL in an SMS or the software version) with a clear 400, storing nothing', async () => {
    const before = await events();
    for (const bad of [
      { sms: [{ seq: 9001, direction: 'IN', message: 'AT\u0000OK', at: ago(3) }] },
      { softwareVersion: '1.2\u0000', dispenses: [{ seq: 9002, pump: 1, at: ago(3), ml: 2.4 }] },
    ]) {
      const res = await checkin(body(bad));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/NUL/);
    }
    expect(await events()).toBe(before);
  });

  it('stores a check-in, reflects the latest state and answers the configuration', async () => {
    const before = await device();
    // The remaining volume as the batch screen shows it (GET /api/v1/batch), and as the batch row stores it.
    const shownRemain = async () =>
      (
        (await request(h.app).get('/api/v1/batch').set('Authorization', `Token ${admin}`)).body as {
          id: number;
          remain: number;
        }[]
      ).find((b) => b.id === before.batchId)!.remain;
    const storedRemain = async () =>
      (await h.database.db.select().from(batches).where(eq(batches.id, before.batchId!)))[0]!.remainLitres;
    await checkFleetHealth(h.database.db); // nothing appended before this test is left over
    const remainBefore = await shownRemain();
    expect(await storedRemain()).toBeCloseTo(remainBefore, 6);
    const res = await checkin(
      body({
        softwareVersion: '1.2.0',
        signalQuality: 66,
        dispenses: [
          { seq: 100, pump: 1, at: ago(30), ml: 2.464 },
          { seq: 101, pump: 1, at: ago(20), ml: 2.464 },
          { seq: 102, pump: 1, at: ago(10), ml: 2.464 },
        ],
        levels: [{ pump: 1, at: ago(1), sensor: true, volumeRemain: 812 }],
        batteries: [{ at: ago(1), volt: 3.95, percent: 81 }],
        dataUsage: [{ at: ago(9), kb: 120, signalQuality: 66 }],
        sms: [{ seq: 7, direction: 'OUT', message: 'STATUS OK', at: ago(9) }],
        location: { lat: 29.93, lng: -90.12, at: ago(9) },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.accepted).toEqual({ dispenses: 3, duplicates: 0, levels: 1, batteries: 1, dataUsage: 1, sms: 1 });
    expect(res.body.config).toMatchObject({
      is_pause: false,
      time_zone: 'America/Chicago',
      pump: { steps_per_second: 300, steps_per_ml: 30 },
    });
    expect(Date.parse(res.body.nextCheckinBy)).toBeGreaterThan(Date.now());
    const after = await device();
    expect(after).toMatchObject({
      isOnline: true,
      coreVer: '1.2.0',
      signalQuality: 66,
      volumeRemain: 812,
      batteryPercent: 81,
      reportedLat: 29.93,
    });
    expect(after.dispenseCount1).toBe(before.dispenseCount1 + 3);
    expect(after.dispensedMl1).toBeCloseTo(before.dispensedMl1 + 3 * 2.464, 3);
    // What was dispensed left the batch that feeds the pump, at once on the batch screen; the check-in
    // appended it (batch_consumption) instead of locking the batch row every device on it shares.
    expect(await shownRemain()).toBeCloseTo(remainBefore - (3 * 2.464) / 1000, 6);
    expect(await storedRemain()).toBeCloseTo(remainBefore, 6);
    const appended = await h.database.db.select().from(batchConsumption).where(eq(batchConsumption.batchId, before.batchId!));
    expect(appended.map((r) => r.litres)).toEqual([expect.closeTo((3 * 2.464) / 1000, 9)]);
    // The fleet-health tick folds it into the row; the screen shows the same volume.
    expect((await checkFleetHealth(h.database.db)).foldedConsumption).toBe(1);
    expect(await storedRemain()).toBeCloseTo(remainBefore - (3 * 2.464) / 1000, 6);
    expect(await shownRemain()).toBeCloseTo(remainBefore - (3 * 2.464) / 1000, 6);
    expect(await h.database.db.select().from(batchConsumption)).toEqual([]);
  });

  // Every device on a batch used to update that batch's one row in its check-in, so one slow commit held
  // all of them (npm run bench: p99 up to 360 ms at 200 check-ins/s). A check-in now only appends.
  it.runIf(backend === 'postgres')('stores a check-in while another transaction holds its batch row', async () => {
    const pool = (
      h.database.db as unknown as {
        $client: { connect(): Promise<{ query(q: string, v?: unknown[]): Promise<unknown>; release(): void }> };
      }
    ).$client;
    const holder = await pool.connect();
    const batchId = (await device()).batchId!;
    try {
      await holder.query('begin');
      await holder.query('select 1 from batches where id = $1 for no key update', [batchId]);
      const res = await Promise.race([
        checkin(body({ dispenses: [{ seq: 150, pump: 1, at: ago(4), ml: 2.464 }] })).then((r) => r.status),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000)),
      ]);
      expect(res).toBe(200);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    const appended = await h.database.db.select().from(batchConsumption).where(eq(batchConsumption.batchId, batchId));
    expect(appended.map((r) => r.litres)).toEqual([expect.closeTo(2.464 / 1000, 9)]);
  });

  // docs/operations.md, "Check-ins and durability": on PostgreSQL a check-in's COMMIT does not wait for the WAL flush
  // (the disk busy with a checkpoint held every check-in 0.5-8 s, PERFORMANCE.md); that transaction only.
  it.runIf(backend === 'postgres')(
    'commits a check-in without waiting for the WAL flush, and only that transaction',
    async () => {
      type Query = (...args: unknown[]) => Promise<{ rows: { synchronous_commit: string }[] }>;
      type Client = { query: Query; release(): void };
      const pool = (
        h.database.db as unknown as {
          $client: {
            connect(): Promise<Client>;
            on(e: 'acquire', f: (c: Client) => void): void;
            off(e: 'acquire', f: (c: Client) => void): void;
            totalCount: number;
          };
        }
      ).$client;
      expect(h.config.checkinSynchronousCommit).toBe('off');
      // What the check-in's connection is sent (the text of each query; everything passed on as it was).
      const sent: string[] = [];
      const watched = new Map<Client, Query>();
      const watch = (client: Client) => {
        if (watched.has(client)) return;
        const query = client.query;
        watched.set(client, query);
        client.query = (...args) => (typeof args[0] === 'string' && sent.push(args[0]), query.apply(client, args));
      };
      pool.on('acquire', watch);
      try {
        expect((await checkin(body({ dispenses: [{ seq: 170, pump: 1, at: ago(2), ml: 2.464 }] }))).status).toBe(200);
      } finally {
        pool.off('acquire', watch);
        for (const [client, query] of watched) client.query = query;
      }
      expect(sent.find((q) => q.includes('gateway_checkin_store'))).toMatch(
        /^begin; set local synchronous_commit = off; select gateway_checkin_store\(/,
      );
      const [stored] = await h.database.db
        .select()
        .from(pumpEvents)
        .where(and(eq(pumpEvents.deviceId, (await device()).id), eq(pumpEvents.seq, 170)));
      expect(stored?.volumeMl).toBeCloseTo(2.464, 4);
      // Every pooled connection, the check-in's among them, is back to the server's setting for other work.
      const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
      try {
        for (const c of clients) expect((await c.query('show synchronous_commit')).rows[0]!.synchronous_commit).toBe('on');
      } finally {
        for (const c of clients) c.release();
      }
    },
  );

  it("a batch's edit counts what check-ins appended as dispensed, and answers the volume left now", async () => {
    const batchId = (await device()).batchId!;
    await checkFleetHealth(h.database.db);
    const [row] = await h.database.db.select().from(batches).where(eq(batches.id, batchId));
    const dispensedBefore = row!.volumeLitres - row!.remainLitres;
    expect(
      (
        await checkin(
          body({
            dispenses: [
              { seq: 160, pump: 1, at: ago(3), ml: 2.464 },
              { seq: 161, pump: 1, at: ago(2), ml: 2.464 },
            ],
          }),
        )
      ).status,
    ).toBe(200);
    const volumeFlOz = Math.round((row!.volumeLitres / 0.0295735) * 100) / 100 + 10;
    const res = await request(h.app).post(`/api/v1/editBatch/${batchId}`).set('Authorization', `Token ${admin}`).send({
      batchNumber: row!.batchNo,
      batchType: row!.batchType,
      installDate: row!.installDate,
      expiryDate: row!.expireDate,
      batchVolume: volumeFlOz,
    });
    expect(res.status).toBe(200);
    const [after] = await h.database.db.select().from(batches).where(eq(batches.id, batchId));
    // Folded under the edit's lock: the two dispenses are in the row, none left appended for this batch.
    expect(after!.volumeLitres - after!.remainLitres).toBeCloseTo(dispensedBefore + (2 * 2.464) / 1000, 9);
    expect(await h.database.db.select().from(batchConsumption).where(eq(batchConsumption.batchId, batchId))).toEqual([]);
    expect(res.body.remain).toBeCloseTo(after!.remainLitres, 6);
  });

  it('accepts a retried upload without counting it twice', async () => {
    const before = await device();
    const n = await events();
    const res = await checkin(
      body({
        dispenses: [
          { seq: 101, pump: 1, at: ago(20), ml: 2.464 },
          { seq: 102, pump: 1, at: ago(10), ml: 2.464 },
          { seq: 103, pump: 1, at: ago(5), ml: 2.464 },
        ],
        sms: [{ seq: 7, direction: 'OUT', message: 'STATUS OK', at: ago(9) }],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.accepted).toMatchObject({ dispenses: 1, duplicates: 2, sms: 0 });
    expect(await events()).toBe(n + 1);
    expect((await device()).dispenseCount1).toBe(before.dispenseCount1 + 1);
    expect(
      (
        await h.database.db
          .select()
          .from(smsLog)
          .where(and(eq(smsLog.deviceId, before.id), eq(smsLog.seq, 7)))
      ).length,
    ).toBe(1);
  });

  it('stores a late, out-of-order batch at its own time without overwriting newer state', async () => {
    const res = await checkin(
      body({
        dispenses: [{ seq: 50, pump: 1, at: ago(600), ml: 2.464 }],
        batteries: [{ at: ago(600), volt: 3.5, percent: 22 }],
        levels: [{ pump: 1, at: ago(600), sensor: false, volumeRemain: 100 }],
      }),
    );
    expect(res.status).toBe(200);
    const d = await device();
    expect(d.batteryPercent).toBe(81);
    expect(d.volumeRemain).toBe(812);
    expect(d.warningLists).not.toContain('BATTERY');
    const [late] = await h.database.db
      .select()
      .from(pumpEvents)
      .where(and(eq(pumpEvents.deviceId, d.id), eq(pumpEvents.seq, 50)));
    expect(Math.abs(late!.occurredAt.getTime() - Date.parse(ago(600)))).toBeLessThan(1000);
    const readings = await h.database.db.select().from(batteryReadings).where(eq(batteryReadings.deviceId, d.id));
    expect(readings.some((r) => r.batteryPercent === 22)).toBe(true);
  });

  it.each([
    ['malformed JSON', '{"sentAt": ', 400],
    ['a missing sentAt', {}, 400],
    [
      'a bad pump number',
      { sentAt: new Date().toISOString(), dispenses: [{ seq: 1, pump: 3, at: new Date().toISOString(), ml: 1 }] },
      400,
    ],
    [
      'too many events',
      {
        sentAt: new Date().toISOString(),
        dispenses: Array.from({ length: 5001 }, (_, i) => ({ seq: 10_000 + i, pump: 1, at: new Date().toISOString(), ml: 1 })),
      },
      400,
    ],
    [
      'a 3 MB body',
      {
        sentAt: new Date().toISOString(),
        sms: [{ seq: 1, direction: 'IN', message: 'x'.repeat(3_000_000), at: new Date().toISOString() }],
      },
      413,
    ],
  ])('refuses %s with a clear 4xx and stores nothing', async (_n, payload, status) => {
    const before = await events();
    const req = request(h.app)
      .post('/device/v1/checkin')
      .set('Authorization', basic(SERIAL, secret))
      .set('content-type', 'application/json');
    const res = await req.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
    expect(res.status).toBe(status);
    expect(res.body).toBeTypeOf('object');
    expect(await events()).toBe(before);
  });

  it.each([
    ['a missing sentAt', {}],
    [
      'a future-dated event',
      {
        sentAt: new Date().toISOString(),
        dispenses: [{ seq: 1, pump: 1, at: new Date(Date.now() + 3600_000).toISOString(), ml: 1 }],
      },
    ],
  ])('answers 401 before 400: a wrong secret with %s', async (_n, payload) => {
    const res = await checkin(payload, basic(SERIAL, 'wrong-secret'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid device credentials.' });
  });

  it('refuses future-dated events (a wrong device clock) and stores nothing of that upload', async () => {
    const before = await events();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const res = await checkin(
      body({
        dispenses: [
          { seq: 900, pump: 1, at: ago(1), ml: 2.4 },
          { seq: 901, pump: 1, at: future, ml: 2.4 },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.dispenses[0]).toMatch(/in the future/);
    expect(await events()).toBe(before);
  });

  it('carries a pending change from the API to the device and clears it when the device acknowledges', async () => {
    const set = await request(h.app)
      .post(`/api/v1/set_device_config/${SERIAL}`)
      .set('Authorization', `Token ${admin}`)
      .send({ is_enabled_vandalism: true });
    expect(set.body.device.pending_flags.others).toBe(true);
    const wake = await checkin(body());
    const change = wake.body.pending.find((p: { setting: string }) => p.setting === 'is_enabled_vandalism');
    expect(change).toMatchObject({ desired: { is_enabled_vandalism: true } });
    expect(wake.body.config.is_enabled_vandalism).toBe(true);
    // Still pending until acknowledged, and expected at the next wake-up.
    const panel = await request(h.app).get(`/api/v1/device/${SERIAL}`).set('Authorization', `Token ${admin}`);
    expect(panel.body.pending_flags.others).toBe(true);
    expect(panel.body.pending_changes[0].expected_at).toBeTruthy();
    const ack = await checkin(body({ applied: [change.id] }));
    expect(ack.body.pending).toEqual([]);
    const after = await request(h.app).get(`/api/v1/device/${SERIAL}`).set('Authorization', `Token ${admin}`);
    expect(after.body.pending_flags).toEqual({ activation_changed: false, rental_changed: false, others: false });
  });

  it('a device cannot settle another device’s change', async () => {
    await request(h.app).post('/api/v1/setPauseDevice/SP240003').set('Authorization', `Token ${admin}`).send({ isPause: true });
    const [other] = await h.database.db
      .select()
      .from(pendingChanges)
      .where(and(eq(pendingChanges.setting, 'pause'), eq(pendingChanges.status, 'pending')));
    await checkin(body({ applied: [other!.id] }));
    const [still] = await h.database.db.select().from(pendingChanges).where(eq(pendingChanges.id, other!.id));
    expect(still!.status).toBe('pending');
  });

  it('a change the device could not apply raises FAILED_REQUEST until asked again', async () => {
    await request(h.app).post(`/api/v1/setPauseDevice/${SERIAL}`).set('Authorization', `Token ${admin}`).send({ isPause: true });
    const wake = await checkin(body());
    const change = wake.body.pending.find((p: { setting: string }) => p.setting === 'pause');
    await checkin(body({ failed: [{ id: change.id, reason: 'motor busy' }] }));
    expect((await device()).warningLists).toContain('FAILED_REQUEST');
    await request(h.app).post(`/api/v1/setPauseDevice/${SERIAL}`).set('Authorization', `Token ${admin}`).send({ isPause: true });
    await checkin(body());
    expect((await device()).warningLists).not.toContain('FAILED_REQUEST');
  });

  it('goes offline only after missing the check-ins of its own schedule, and back online at the next one', async () => {
    const d = await device();
    const sleep = Number(d.poweroffTime);
    const awake = Number(d.wakeup1Time);
    const cycle = sleep + awake;
    // Late by most of two cycles: still online.
    expect(
      (await checkFleetHealth(h.database.db, new Date(d.lastSeenAt!.getTime() + (2 * cycle + 5) * 60_000))).wentOffline,
    ).not.toContain(SERIAL);
    expect((await device()).isOnline).toBe(true);
    // Two cycles and the grace missed: offline.
    expect(
      (await checkFleetHealth(h.database.db, new Date(d.lastSeenAt!.getTime() + (2 * cycle + 11) * 60_000))).wentOffline,
    ).toContain(SERIAL);
    expect((await device()).isOnline).toBe(false);
    await checkin(body());
    expect((await device()).isOnline).toBe(true);
  });

  it('a change nobody picked up in time expires instead of being applied late', async () => {
    await request(h.app)
      .post(`/api/v1/deviceRegistrationSetup/${SERIAL}`)
      .set('Authorization', `Token ${admin}`)
      .send({ powerOffTime: 45, wakeUpTime: 5 });
    const result = await checkFleetHealth(h.database.db, new Date(Date.now() + 8 * 86_400_000));
    expect(result.expiredChanges).toBeGreaterThan(0);
    // Named, so the map's pin deltas and the pollers hear of it (processes/schedules.ts).
    expect(result.expiredOn).toContain(SERIAL);
    const wake = await checkin(body());
    expect(wake.body.pending.find((p: { setting: string }) => p.setting === 'registration_timer')).toBeUndefined();
    expect((await device()).warningLists).toContain('FAILED_REQUEST');
  });

  it('a pending change can be cancelled before the device takes it, restoring what was shown before', async () => {
    const auth = { Authorization: `Token ${admin}` };
    const before = await device();
    // Two requests for one setting: the second replaces the first; cancelling restores the original.
    await request(h.app)
      .post(`/api/v1/set_device_config/${SERIAL}`)
      .set(auth)
      .send({ is_enabled_maintenance: !before.isEnabledMaintenance });
    await request(h.app)
      .post(`/api/v1/set_device_config/${SERIAL}`)
      .set(auth)
      .send({ is_enabled_maintenance: before.isEnabledMaintenance });
    await request(h.app).put(`/api/v1/editPumpSetting/${SERIAL}`).set(auth).send({ pump_mode: 8 });
    const panel = (await request(h.app).get(`/api/v1/device/${SERIAL}`).set(auth)).body;
    const maintenance = panel.pending_changes.find((p: { setting: string }) => p.setting === 'is_enabled_maintenance');
    const client = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' }))
      .body.auth_token;
    expect(
      (await request(h.app).post(`/api/v1/cancelPendingChange/${maintenance.id}`).set('Authorization', `Token ${client}`)).status,
    ).toBe(403);
    const res = await request(h.app).post(`/api/v1/cancelPendingChange/${maintenance.id}`).set(auth);
    expect(res.status).toBe(200);
    expect(res.body.device.is_enabled_maintenance).toBe(before.isEnabledMaintenance);
    expect(res.body.device.pending_changes.map((p: { setting: string }) => p.setting)).not.toContain('is_enabled_maintenance');
    expect((await request(h.app).post(`/api/v1/cancelPendingChange/${maintenance.id}`).set(auth)).body).toEqual({
      detail: 'This change is no longer pending (cancelled).',
    });
    expect((await request(h.app).post('/api/v1/cancelPendingChange/999999').set(auth)).status).toBe(404);
    expect((await request(h.app).post('/api/v1/cancelPendingChange/abc').set(auth)).status).toBe(400);
    // The device is never told about a cancelled change.
    const wake = await checkin(body());
    expect(wake.body.pending.map((p: { setting: string }) => p.setting)).not.toContain('is_enabled_maintenance');
    const pump = wake.body.pending.find((p: { setting: string }) => p.setting === 'pump_setting');
    const cancelled = await request(h.app).post(`/api/v1/cancelPendingChange/${pump.id}`).set(auth);
    expect(cancelled.status).toBe(200);
    const setting = (await request(h.app).get(`/api/v1/pumpSetting/${SERIAL}`).set(auth)).body;
    expect(setting.pump_mode).not.toBe(8);
  });

  it('keeps every stored list answer equal to a fresh one after the check-ins and settlements above', async () => {
    // A check-in takes the other tables' part of the list answer from the stored one (migration 0007).
    await checkin(
      body({
        batteries: [{ at: ago(0), volt: 3.6, percent: 40 }],
        levels: [{ pump: 1, at: ago(0), sensor: true, volumeRemain: 200 }],
      }),
    );
    const stale = (await h.database.db.execute(
      sql`select serial from devices left join device_list_answers a on a.device_id = devices.id where a.list_json is distinct from device_list_json(devices)`,
    )) as unknown as { rows: { serial: string }[] };
    expect(stale.rows).toEqual([]);
    const listed = (await h.database.db.execute(
      sql`select a.list_json::json->'pending_flags' as flags, a.list_json::json->>'battery_percent' as pct from devices left join device_list_answers a on a.device_id = devices.id where serial = ${SERIAL}`,
    )) as unknown as { rows: { flags: unknown; pct: string }[] };
    expect(listed.rows[0]!.pct).toBe('40');
    expect(listed.rows[0]!.flags).toEqual({ activation_changed: false, rental_changed: false, others: false });
  });

  it('provisions new serials for distributors, unplaced', async () => {
    const res = await request(h.app)
      .post('/api/v1/provisionDevices')
      .set('Authorization', `Token ${admin}`)
      .send({ serials: ['SIM00001', 'SIM00002'] });
    expect(res.status).toBe(201);
    const list = (await request(h.app).get('/api/v1/avaliableDevice').set('Authorization', `Token ${admin}`)).body.map(
      (d: { serial: string }) => d.serial,
    );
    expect(list).toEqual(expect.arrayContaining(['SIM00001', 'SIM00002']));
    expect(
      (
        await request(h.app)
          .post('/api/v1/provisionDevices')
          .set('Authorization', `Token ${admin}`)
          .send({ serials: ['SIM00001'] })
      ).status,
    ).toBe(400);
  });
});
