import path from 'node:path';
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { geoContains } from 'd3-geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchStatus, deactivationDue, LOW_BATTERY_PERCENT, OVERDUE_DEACTIVATION_REASON } from '@fleet/shared';
import * as t from '../../server/src/db/schema.ts';
import { demoSeedStages, seedDemoIfEmpty } from '../../server/src/seed/demo.ts';
import { verifyPassword } from '../../server/src/lib/crypto.ts';
import { countyByFips } from '../../server/src/places/geography.ts';
import { DEMO_STILL_SERIALS } from '../../server/src/seed/demo-data.ts';
import { gatewayServiceOf } from '../../server/src/gateway/index.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { backends } from '../helpers/backends.ts';

/**
 * The demo fleet is what a first-time user sees: these checks are the promises of the foundation issue.
 * A year of history is seeded on PostgreSQL when it runs here (faster), else on PGlite.
 */
const backend = (await backends()).includes('postgres') ? 'postgres' : 'pglite';

describe(`demo fleet (${backend}, one year of history)`, () => {
  let h: Harness;
  const now = new Date();
  /** What the seed printed (no terminal here: plain lines, as in a log). */
  const logged: string[] = [];
  beforeAll(async () => {
    h = await startHarness(backend, {}, { seed: false });
    const summary = await seedDemoIfEmpty(h.database, {
      uploadsDir: path.join(h.dataDir, 'uploads'),
      historyDays: 365,
      now,
      log: (line) => void logged.push(line),
    });
    expect(summary).not.toBeNull();
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });
  const db = () => h.database.db;

  it('prints each stage with the share of the work done and the time left, then a closing done line', () => {
    const stages = demoSeedStages(true);
    const pattern = /^demo seed \[(\d+)\/(\d+)\] (\d+)% (.+) \(about (\d+ s|\d+ min \d\d s) left\)$/;
    const stageLines = logged.filter((l) => l.startsWith('demo seed ['));
    expect(stageLines).toHaveLength(stages.length);
    const parsed = stageLines.map((l) => {
      const m = pattern.exec(l);
      expect(m, l).not.toBeNull();
      return { index: Number(m![1]), count: Number(m![2]), percent: Number(m![3]), name: m![4] };
    });
    expect(parsed.map((p) => p.name)).toEqual(stages.map((s) => s.name));
    expect(parsed.map((p) => p.index)).toEqual(stages.map((_, i) => i + 1));
    expect(parsed.every((p) => p.count === stages.length)).toBe(true);
    // From 0 %, rising with the stages, never 100 % before the end.
    const percents = parsed.map((p) => p.percent);
    expect(percents[0]).toBe(0);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(percents.at(-1)!).toBeGreaterThan(percents[1]!);
    expect(percents.at(-1)!).toBeLessThan(100);
    // The closing line comes after the last stage, then the summary.
    const done = logged.findIndex((l) => /^demo seed: done in (\d+ s|\d+ min \d\d s)$/.test(l));
    expect(done).toBeGreaterThan(logged.indexOf(stageLines.at(-1)!));
    expect(logged.slice(done + 1)).toEqual([
      expect.stringMatching(/^demo fleet seeded: \d+ devices on \d+ sites, \d+ telemetry rows$/),
    ]);
  });

  it('does not seed twice', async () => {
    expect(await seedDemoIfEmpty(h.database, { uploadsDir: path.join(h.dataDir, 'uploads'), historyDays: 1 })).toBeNull();
  });

  it('has the three demo accounts, one per role, with the password Demo1234', async () => {
    const rows = await db()
      .select()
      .from(t.users)
      .where(sql`${t.users.email} in ('distributor@demo.test','client@demo.test','partner@demo.test')`);
    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(byEmail['distributor@demo.test']).toMatchObject({ role: 'distributor', userType: 'distributor', activated: true });
    expect(byEmail['client@demo.test']).toMatchObject({ role: 'client', userType: 'client', activated: true });
    expect(byEmail['partner@demo.test']).toMatchObject({ userType: 'market-partner', activated: true });
    for (const r of rows) expect(await verifyPassword('Demo1234', r.passwordHash)).toBe(true);
  });

  it('has at least 60 devices on at least 8 sites in at least 6 parishes around (30.0, -90.26)', async () => {
    const placed = await db()
      .select()
      .from(t.devices)
      .where(sql`${t.devices.groupId} is not null`);
    const sites = await db().select().from(t.deviceGroups);
    const parishes = new Set(sites.map((s) => s.locationId));
    expect(placed.length).toBeGreaterThanOrEqual(60);
    expect(sites.length).toBeGreaterThanOrEqual(8);
    expect(parishes.size).toBeGreaterThanOrEqual(6);
    for (const s of sites) {
      expect(Math.abs(s.lat - 30.0)).toBeLessThan(1);
      expect(Math.abs(s.lng - -90.26)).toBeLessThan(1);
      expect(s.timezoneId).toBe('America/Chicago');
    }
  });

  it('keeps every site inside the real outline of its parish, from us-atlas', async () => {
    const sites = await db()
      .select({ site: t.deviceGroups, loc: t.locations })
      .from(t.deviceGroups)
      .innerJoin(t.locations, eq(t.locations.id, t.deviceGroups.locationId));
    for (const { site, loc } of sites) {
      const collection = JSON.parse(loc.geoJson);
      const feature = collection.features[0];
      expect(feature.properties.name_2).toBe(loc.name);
      expect(loc.fips).toMatch(/^22\d{3}$/);
      expect(geoContains(feature, [site.lng, site.lat]), `${site.name} in ${loc.name}`).toBe(true);
      // The real outline of the packaged data set, not a hand-drawn shape.
      expect(feature.geometry).toEqual(JSON.parse(JSON.stringify(countyByFips(loc.fips!).geometry)));
      expect(JSON.stringify(feature.geometry).match(/\],\[/g)!.length).toBeGreaterThan(15);
      const [, lng, lat] = /^POINT\((-?[\d.]+) (-?[\d.]+)\)$/.exec(loc.centroid)!.map(Number);
      expect(Math.abs(lat! - site.lat)).toBeLessThan(1);
      expect(Math.abs(lng! - site.lng)).toBeLessThan(1);
    }
  });

  it('has several brands with logo files', async () => {
    const brands = await db().select().from(t.brands);
    expect(brands.length).toBeGreaterThanOrEqual(3);
    for (const b of brands) {
      expect(b.imageUrl).toMatch(/^\/uploads\/brands\/.+\.svg$/);
      expect(fs.readFileSync(path.join(h.dataDir, b.imageUrl!), 'utf8')).toContain('<svg');
    }
    const assignments = await db().select().from(t.brandClients);
    const perBrand = new Map<number, number>();
    for (const a of assignments) perBrand.set(a.brandId, (perBrand.get(a.brandId) ?? 0) + 1);
    for (const n of perBrand.values()) expect(n).toBeLessThanOrEqual(5);
  });

  it('has batches in every status, recalled ones included', async () => {
    const batches = await db().select().from(t.batches);
    const used = new Set(
      (await db().select({ a: t.devices.batchId, b: t.devices.batch2Id }).from(t.devices)).flatMap((r) => [r.a, r.b]),
    );
    const today = now.toISOString().slice(0, 10);
    const statuses = new Set(batches.map((b) => batchStatus({ expireDate: b.expireDate, inUse: used.has(b.id) }, today)));
    expect([...statuses].sort()).toEqual(['ALMOST_EXPIRED', 'EXPIRED', 'IN_USE', 'NOT_IN_USE']);
    expect(batches.some((b) => b.isRecalled && used.has(b.id))).toBe(true);
  });

  it('has devices in every state the screens show', async () => {
    const d = await db()
      .select()
      .from(t.devices)
      .where(sql`${t.devices.groupId} is not null`);
    const some = (f: (x: (typeof d)[number]) => boolean) => d.filter(f).length;
    expect(some((x) => x.rightPumpType === 'Unspecified')).toBeGreaterThan(0);
    expect(some((x) => x.rightPumpType !== 'Unspecified')).toBeGreaterThan(0);
    expect(some((x) => x.isOnline)).toBeGreaterThan(some((x) => !x.isOnline));
    expect(some((x) => !x.isOnline)).toBeGreaterThan(0);
    expect(some((x) => x.isWarning)).toBeGreaterThan(0);
    expect(some((x) => x.isBatchWarning)).toBeGreaterThan(0);
    expect(some((x) => x.isPause)).toBeGreaterThan(0);
    expect(some((x) => x.isMaintenance)).toBeGreaterThan(0);
    expect(some((x) => (x.batteryPercent ?? 100) < LOW_BATTERY_PERCENT)).toBeGreaterThan(0);
    expect(some((x) => x.batteryWarning)).toBe(some((x) => (x.batteryPercent ?? 100) < LOW_BATTERY_PERCENT));
    expect(some((x) => x.isRegistration)).toBeGreaterThan(0);
    expect(some((x) => !x.isActivated)).toBeGreaterThan(0);
    const available = await db()
      .select()
      .from(t.devices)
      .where(sql`${t.devices.groupId} is null`);
    expect(available.length).toBeGreaterThan(0);
  });

  it("has an account deactivated for an overdue bill that covers devices of its own brands, on no other bill's plan", async () => {
    const [overdue] = await db().select().from(t.users).where(eq(t.users.email, 'overdue@demo.test'));
    expect(overdue).toMatchObject({ activated: false, deactivatedReason: OVERDUE_DEACTIVATION_REASON });
    const [bill] = await db().select().from(t.bills).where(eq(t.bills.billUid, 'DEMO-BASIC-0099'));
    expect(bill).toMatchObject({ userId: overdue!.id, status: 'OVERDUE', productName: 'basic-plan' });
    // Past the deactivation day: the rule that deactivated it still holds today.
    expect(deactivationDue({ status: bill!.status, dueDate: bill!.dueDate }, now.toISOString().slice(0, 10))).toBe(true);
    const held = await db()
      .select({ deviceId: t.billDevices.deviceId, brandId: t.devices.brandId })
      .from(t.billDevices)
      .innerJoin(t.devices, eq(t.devices.id, t.billDevices.deviceId))
      .where(eq(t.billDevices.billId, bill!.id));
    expect(held.length).toBeGreaterThan(0);
    const ownBrands = (await db().select().from(t.brandClients).where(eq(t.brandClients.userId, overdue!.id))).map(
      (r) => r.brandId,
    );
    for (const d of held) expect(ownBrands).toContain(d.brandId);
    // No other bill of the plan holds them (a device is on a plan through one bill).
    const others = await db()
      .select({ deviceId: t.billDevices.deviceId })
      .from(t.billDevices)
      .innerJoin(t.bills, eq(t.bills.id, t.billDevices.billId))
      .where(sql`${t.bills.productName} = 'basic-plan' and ${t.bills.id} <> ${bill!.id}`);
    expect(others.filter((o) => held.some((d) => d.deviceId === o.deviceId))).toEqual([]);
  });

  it('has at least one device with each warning, and they hold under the live simulator', async () => {
    const d = await db()
      .select()
      .from(t.devices)
      .where(sql`${t.devices.groupId} is not null`);
    const carrying = (code: string) => d.filter((x) => (x.warningLists as string[]).includes(code)).map((x) => x.serial);
    const codes = [
      'PUMP_SENSOR',
      'LEFT_PUMP_VOLUME',
      'RIGHT_PUMP_VOLUME',
      'FAILED_REQUEST',
      'BATTERY',
      'REGISTRATION',
      'BATCH_EXPIRED',
      'BATCH_RECALLED',
    ];
    for (const code of codes) expect(carrying(code), code).not.toEqual([]);
    // Warnings from a unit's own readings stay on units the simulator leaves alone.
    for (const code of ['LEFT_PUMP_VOLUME', 'RIGHT_PUMP_VOLUME', 'BATTERY', 'REGISTRATION']) {
      expect(
        carrying(code).some((serial) => DEMO_STILL_SERIALS.includes(serial)),
        code,
      ).toBe(true);
    }
    // PUMP_SENSOR and FAILED_REQUEST survive a simulated unit's check-in (fresh readings, no fault reported).
    const gateway = gatewayServiceOf(db(), h.config);
    for (const code of ['PUMP_SENSOR', 'FAILED_REQUEST']) {
      const serial = carrying(code).find((s) => !DEMO_STILL_SERIALS.includes(s))!;
      const { secret } = await gateway.rotateSecret(serial);
      const at = new Date().toISOString();
      await gateway.checkin(`Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`, {
        sentAt: at,
        batteries: [{ at, volt: 4.1, percent: 90 }],
        levels: [{ pump: 1, at, sensor: true, volumeRemain: 900 }],
      });
      const [after] = await db().select().from(t.devices).where(eq(t.devices.serial, serial));
      expect(after!.warningLists, code).toContain(code);
      expect(after!.warningLists, code).not.toContain('BATTERY');
    }
  });

  it('has client and market-partner companies, and pending sign-ups', async () => {
    const u = await db().select().from(t.users);
    expect(u.filter((x) => x.role === 'client' && x.activated).length).toBeGreaterThanOrEqual(2);
    expect(
      new Set(u.filter((x) => x.userType === 'market-partner').map((x) => x.company.toLowerCase())).size,
    ).toBeGreaterThanOrEqual(2);
    expect(u.filter((x) => !x.activated && !x.deactivatedReason).length).toBeGreaterThan(0);
  });

  it('has a year of telemetry so every chart has data', async () => {
    const span = async (table: string, column: string) => {
      const res = (await h.database.db.execute(
        sql.raw(`select min(${column}) as first, max(${column}) as last, count(*)::int as n from ${table}`),
      )) as unknown as { rows: { first: string; last: string; n: number }[] };
      const row = res.rows[0]!;
      return { days: (new Date(row.last).getTime() - new Date(row.first).getTime()) / 86_400_000, n: row.n };
    };
    for (const [table, column] of [
      ['pump_events', 'occurred_at'],
      ['battery_readings', 'recorded_at'],
      ['data_usage', 'recorded_at'],
      ['level_readings', 'recorded_at'],
      ['sms_log', 'created_when'],
    ] as const) {
      const s = await span(table, column);
      expect(s.days, table).toBeGreaterThan(350);
      expect(s.n, table).toBeGreaterThan(1000);
    }
    // Both pumps of a dual device dispense, and only in the site's daytime.
    const hours = (await h.database.db.execute(
      sql.raw(`select distinct extract(hour from occurred_at at time zone 'America/Chicago')::int as h from pump_events`),
    )) as unknown as { rows: { h: number }[] };
    for (const { h: hour } of hours.rows) expect(hour >= 8 && hour <= 20).toBe(true);
    const pumps = (await h.database.db.execute(
      sql.raw(`select count(distinct pump_number)::int as n from pump_events`),
    )) as unknown as { rows: { n: number }[] };
    expect(pumps.rows[0]!.n).toBe(2);
  });
});
