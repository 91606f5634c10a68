import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, pendingChanges, pumpEvents } from '../../server/src/db/schema.ts';
import { startSimulator, type SimulatedDevice, type Simulator } from '../../workers/src/simulator/simulator.ts';
import { seededRandom } from '../../workers/src/simulator/device-model.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * The simulator against a real portal over HTTP: five demo devices at 600x speed (10 simulated minutes
 * a second, around midday), one of them paused through the API before the run. The run lasts until the
 * portal holds everything the test checks (usually a few seconds), at most 30 s.
 */
describe('fleet simulator against the portal (pglite)', () => {
  let h: Harness;
  let server: http.Server;
  let baseUrl = '';
  let admin = '';
  const SERIALS = ['SP240001', 'SP240002', 'SP240003', 'SP240013', 'SP240017'];
  const PAUSED = 'SP240001';

  beforeAll(async () => {
    h = await startHarness('pglite');
    server = http.createServer(h.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    admin = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await h?.close();
  });

  const db = () => h.database.db;
  const ids = async () =>
    await db().select({ id: devices.id, serial: devices.serial }).from(devices).where(inArray(devices.serial, SERIALS));

  it('stores the devices’ telemetry once each, and carries a pause from the portal to the device', async () => {
    const started = new Date();
    const rows = await ids();
    const deviceIds = rows.map((r) => r.id);
    const pausedId = rows.find((r) => r.serial === PAUSED)!.id;
    const [{ maxId, n: before }] = (await db()
      .select({ maxId: sql<number>`coalesce(max(${pumpEvents.id}), 0)::bigint`, n: sql<number>`count(*)::int` })
      .from(pumpEvents)
      .where(inArray(pumpEvents.deviceId, deviceIds))) as [{ maxId: number; n: number }];

    const fleet: SimulatedDevice[] = [];
    for (const serial of SERIALS) {
      const res = await request(h.app).post(`/api/v1/deviceSecret/${serial}`).set('Authorization', `Token ${admin}`);
      expect(res.status).toBe(200);
      const [d] = await db().select().from(devices).where(eq(devices.serial, serial));
      fleet.push({
        serial,
        secret: res.body.secret,
        leftPumpType: d!.leftPumpType as SimulatedDevice['leftPumpType'],
        rightPumpType: d!.rightPumpType as SimulatedDevice['rightPumpType'],
      });
    }
    const pause = await request(h.app)
      .post(`/api/v1/setPauseDevice/${PAUSED}`)
      .set('Authorization', `Token ${admin}`)
      .send({ isPause: true });
    expect(pause.status).toBe(200);

    // The simulated clock starts at 11:00 in New Orleans (12:00 in summer), so the run is in opening hours.
    const today = new Date();
    const simStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 17, 0);
    const logs: string[] = [];
    const sim: Simulator = startSimulator({
      baseUrl,
      devices: fleet,
      speed: 600,
      simStart,
      random: seededRandom(42),
      log: (m) => logs.push(m),
      params: { dropoutPerDay: 0 },
    });
    // Until each thing checked below has happened (or 30 s): two check-ins a device, every device seen,
    // the pause applied, another device dispensing after it, and each telemetry table written.
    const since = (table: string) =>
      sql`select count(*)::int as n from ${sql.raw(table)} where recorded_at >= ${started.toISOString()}::timestamptz`;
    const settled = async () => {
      if (sim.stats().checkins < SERIALS.length * 2) return false;
      const seen = await db().select({ at: devices.lastSeenAt }).from(devices).where(inArray(devices.id, deviceIds));
      if (seen.some((d) => !d.at || d.at.getTime() < started.getTime())) return false;
      const [applied] = await db()
        .select({ at: pendingChanges.resolvedAt })
        .from(pendingChanges)
        .where(
          and(eq(pendingChanges.deviceId, pausedId), eq(pendingChanges.setting, 'pause'), eq(pendingChanges.status, 'applied')),
        )
        .orderBy(desc(pendingChanges.id))
        .limit(1);
      if (!applied?.at) return false;
      const [dispensed] = (await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(pumpEvents)
        .where(
          and(
            inArray(
              pumpEvents.deviceId,
              deviceIds.filter((i) => i !== pausedId),
            ),
            gt(pumpEvents.occurredAt, applied.at),
          ),
        )) as [{ n: number }];
      if (dispensed.n === 0) return false;
      for (const table of ['battery_readings', 'level_readings', 'data_usage']) {
        if (((await h.database.db.execute(since(table))) as unknown as { rows: { n: number }[] }).rows[0]!.n === 0) return false;
      }
      return true;
    };
    await expect.poll(settled, { timeout: 30_000, interval: 250 }).toBe(true);
    await sim.stop();
    const stats = sim.stats();

    expect(stats.checkins).toBeGreaterThanOrEqual(SERIALS.length * 2);
    expect(stats.unauthorized + stats.rejected).toBe(0);
    expect(logs.filter((l) => /401|refused/.test(l))).toEqual([]);

    // Telemetry grew, with no dispense stored twice.
    const [after] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(pumpEvents)
      .where(inArray(pumpEvents.deviceId, deviceIds))) as [{ n: number }];
    expect(after.n).toBeGreaterThan(before);
    const dup = (await h.database.db.execute(sql`
      select count(*)::int as n, count(distinct (device_id, pump_number, seq))::int as d
      from pump_events where id > ${maxId} and device_id in (${sql.join(
        deviceIds.map((i) => sql`${i}`),
        sql`, `,
      )})`)) as unknown as { rows: { n: number; d: number }[] };
    expect(dup.rows[0]!.n).toBeGreaterThan(0);
    expect(dup.rows[0]!.d).toBe(dup.rows[0]!.n);
    expect(dup.rows[0]!.n).toBe(after.n - before);
    for (const table of ['battery_readings', 'level_readings', 'data_usage']) {
      const r = (await h.database.db.execute(since(table))) as unknown as { rows: { n: number }[] };
      expect(r.rows[0]!.n, table).toBeGreaterThan(0);
    }

    // Every device checked in during the run.
    for (const d of await db().select().from(devices).where(inArray(devices.id, deviceIds))) {
      expect(d.lastSeenAt!.getTime(), d.serial).toBeGreaterThanOrEqual(started.getTime());
      expect(d.isOnline).toBe(true);
    }

    // The pause went pending -> applied, and the paused device dispensed nothing after it.
    const [change] = await db()
      .select()
      .from(pendingChanges)
      .where(and(eq(pendingChanges.deviceId, pausedId), eq(pendingChanges.setting, 'pause')))
      .orderBy(desc(pendingChanges.id))
      .limit(1);
    expect(change!.status).toBe('applied');
    expect(change!.resolvedAt!.getTime()).toBeGreaterThan(started.getTime());
    const afterPause = await db()
      .select()
      .from(pumpEvents)
      .where(and(eq(pumpEvents.deviceId, pausedId), gt(pumpEvents.occurredAt, change!.resolvedAt!)));
    expect(afterPause).toEqual([]);
    expect(sim.device(PAUSED)!.config.paused).toBe(true);
    // ...while the others carried on.
    const others = deviceIds.filter((i) => i !== pausedId);
    const [busy] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(pumpEvents)
      .where(and(inArray(pumpEvents.deviceId, others), gt(pumpEvents.occurredAt, change!.resolvedAt!)))) as [{ n: number }];
    expect(busy.n).toBeGreaterThan(0);
  });
});
