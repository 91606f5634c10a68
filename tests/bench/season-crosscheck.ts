/**
 * The season runner's cross-check (issue 47; docs/simulator.md): the same season twice, once on the
 * in-process portal (season.ts memoryPortal: the shared rules) and once through the real portal: the
 * device gateway over HTTP and the database (PGlite), the app on the runner's simulated clock, technicians'
 * refills through POST /api/v1/resetMl, the fleet read back from the devices table the device list is
 * served from, the fleet-health job every 30 simulated minutes. The figures must agree within TOLERANCE.
 *
 *   npx tsx tests/bench/season-crosscheck.ts                  # 50 units, 7 days, naive and none
 *   npx tsx tests/bench/season-crosscheck.ts --devices 20 --days 3 --policies naive
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  batchDayOf,
  batchWarningState,
  simulatedClock,
  type CheckinAnswer,
  type PumpType,
  type WarningCode,
} from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import * as t from '../../server/src/db/schema.ts';
import { checkFleetHealth } from '../../server/src/jobs/fleet-health.ts';
import { hashPassword, keyHash } from '../../server/src/lib/crypto.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import {
  defaultCrews,
  memoryPortal,
  naivePolicy,
  nonePolicy,
  runSeason,
  seasonFleet,
  type FleetDeviceView,
  type SeasonFleet,
  type SeasonPortal,
  type SeasonReport,
} from '../../workers/src/simulator/season.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const devices = Number(opt('devices', '50'));
const days = Number(opt('days', '7'));
const seed = Number(opt('seed', '1'));
const start = Date.UTC(2026, 5, 1, 5, 0);

/**
 * How close the two runs must be. They play the same units, customers and policy; what may differ is
 * what the portal reads back (the gateway stores each reading and answers from the stored row) and a
 * unit's order of pending changes. Absolute for shares (percentage points / 100), relative for counts.
 */
export const TOLERANCE = { emptyShare: 0.01, earlyVisitShare: 0.05, visits: 0.1, km: 0.1 };

const PASSWORD = 'Crosscheck1234';
const secretOf = (serial: string) => `season-${serial}-secret`;

async function gatewayPortal(fleet: SeasonFleet, clock: ReturnType<typeof simulatedClock>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'season-crosscheck-'));
  // In memory: nothing here needs to outlive the run, and PGlite on files syncs every commit.
  const database = await openDatabase({});
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      SECRET_KEY: 's'.repeat(32),
      MAINTENANCE_TOKEN: 'm'.repeat(32),
    }),
    publicUrl: 'http://portal.test',
  };
  const db = database.db;

  // The fleet: one distributor, the batches, a site per site, the units placed with their secrets.
  await db.insert(t.users).values({
    email: 'crews@season.test',
    username: 'Season Crews',
    passwordHash: await hashPassword(PASSWORD),
    company: 'Season',
    phone: '',
    role: 'distributor',
    userType: 'distributor',
    activated: true,
  });
  const batchIds = new Map<string, number>();
  for (const b of fleet.batches) {
    const [row] = await db
      .insert(t.batches)
      .values({
        batchNo: b.batchNo,
        batchType: b.fluid === 'Sanitizer' ? 2 : 1,
        installDate: batchDayOf(new Date(start - 30 * 86_400_000)),
        expireDate: b.expireDate,
        volumeLitres: 1000,
        remainLitres: 1000,
      })
      .returning({ id: t.batches.id });
    batchIds.set(b.batchNo, row!.id);
  }
  const groupIds = new Map<string, number>();
  for (const u of fleet.units) {
    if (!groupIds.has(u.site.id)) {
      const [g] = await db
        .insert(t.deviceGroups)
        .values({
          name: u.site.name,
          address: `${u.site.name}, New Orleans, LA`,
          lat: u.lat,
          lng: u.lng,
          timezoneId: u.site.timezone,
        })
        .returning({ id: t.deviceGroups.id });
      groupIds.set(u.site.id, g!.id);
    }
    await db.insert(t.devices).values({
      serial: u.serial,
      label: u.serial,
      number: Number(u.serial.slice(3)),
      address: `${u.site.name}, New Orleans, LA`,
      lat: u.lat,
      lng: u.lng,
      groupId: groupIds.get(u.site.id)!,
      leftPumpType: u.leftPumpType,
      rightPumpType: u.rightPumpType,
      batchId: u.batch ? batchIds.get(u.batch)! : null,
      batch2Id: u.batch2 ? batchIds.get(u.batch2)! : null,
      volumeRemain: u.volumeMl,
      volumeRemain2: u.volume2Ml,
      levelSensor1: true,
      levelSensor2: true,
      poweroffTime: String(u.poweroffMinutes),
      wakeup1Time: String(u.wakeupMinutes),
      isActivated: true,
      coreVer: '1.1.2',
      secretHash: keyHash(config.secretKey, secretOf(u.serial)),
    });
  }

  const app = createApp({
    config,
    database,
    clock,
    mailer: createMailer({ smtpUrl: undefined, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') }),
    log: () => undefined,
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  };
  const login = await call('POST', '/auth/token/login/', {}, { email: 'crews@season.test', password: PASSWORD });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const token = `Token ${(JSON.parse(login.text) as { auth_token: string }).auth_token}`;
  const units = new Map(fleet.units.map((u) => [u.serial, u]));
  let lastHealth = 0;
  const counts = { checkins: 0, refused: 0 };

  const portal: SeasonPortal = {
    async checkin(unit, upload) {
      const res = await call(
        'POST',
        '/device/v1/checkin',
        { authorization: `Basic ${Buffer.from(`${unit.serial}:${secretOf(unit.serial)}`).toString('base64')}` },
        upload.body,
      );
      if (res.status !== 200) {
        counts.refused++;
        if (counts.refused <= 3) console.error(`check-in ${unit.serial}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
        return null;
      }
      counts.checkins++;
      return JSON.parse(res.text) as CheckinAnswer;
    },
    async resetMl(serial, pump) {
      const res = await call('POST', `/api/v1/resetMl/${serial}`, { authorization: token }, { pumpNumber: pump });
      if (res.status !== 200) throw new Error(`resetMl ${serial} ${pump}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
    },
    async changeBatch() {
      throw new Error('the cross-check plays no recall (batch changes are checked in process)');
    },
    async recall() {
      throw new Error('the cross-check plays no recall');
    },
    async tick(at) {
      if (at - lastHealth < 30 * 60_000) return;
      lastHealth = at;
      await checkFleetHealth(db, new Date(at));
    },
    async view(at) {
      const today = batchDayOf(new Date(at));
      const rows = (await db.execute(sql`
        select d.serial, d.lat, d.lng, d.left_pump_type, d.right_pump_type, d.volume_remain, d.volume_remain2, d.level_sensor1, d.level_sensor2,
               d.battery_percent, d.warning_lists, d.is_online, d.last_seen_at, d.poweroff_time, d.wakeup1_time, d.next_wakeup_time, d.reservoir_ml,
               b1.batch_no as b1, b1.expire_date as e1, b1.is_recalled as r1, b2.batch_no as b2, b2.expire_date as e2, b2.is_recalled as r2
        from devices d left join batches b1 on b1.id = d.batch_id left join batches b2 on b2.id = d.batch2_id
        where d.group_id is not null order by d.serial`)) as unknown as { rows: Record<string, unknown>[] };
      return rows.rows.map((r): FleetDeviceView => {
        const u = units.get(String(r.serial))!;
        const pump = (n: 1 | 2, fluid: PumpType) => {
          const state = batchWarningState(
            (r[`e${n}`] as string | null) == null ? null : String(r[`e${n}`]),
            r[`r${n}`] as boolean | null,
            today,
          );
          return {
            pump: n,
            fluid,
            volumeMl: Number(r[n === 1 ? 'volume_remain' : 'volume_remain2']),
            reservoirMl: Number(r.reservoir_ml),
            sensor: !!r[n === 1 ? 'level_sensor1' : 'level_sensor2'],
            batch: (r[`b${n}`] as string | null) ?? null,
            batchRecalled: !!state?.recalled,
            batchExpired: !!state?.expired,
          };
        };
        const date = (x: unknown) => (x == null ? null : new Date(x as string));
        return {
          serial: u.serial,
          site: u.site,
          lat: Number(r.lat),
          lng: Number(r.lng),
          pumps: [
            pump(1, r.left_pump_type as PumpType),
            ...(r.right_pump_type !== 'Unspecified' ? [pump(2, r.right_pump_type as PumpType)] : []),
          ],
          batteryPercent: r.battery_percent == null ? null : Number(r.battery_percent),
          warnings: (r.warning_lists ?? []) as WarningCode[],
          online: !!r.is_online,
          lastSeenAt: date(r.last_seen_at),
          checkin: {
            poweroffMinutes: Number(r.poweroff_time),
            wakeupMinutes: Number(r.wakeup1_time),
            nextCheckinBy: date(r.next_wakeup_time),
          },
        };
      });
    },
  };
  return {
    portal,
    counts,
    async close() {
      await (app as unknown as { queue?: { close(): Promise<void> } }).queue?.close().catch(() => undefined);
      await new Promise((resolve) => server.close(resolve));
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const fleet = seasonFleet(seed, { devices, sites: Math.max(1, Math.round(devices / 10)), start });
const crews = defaultCrews(1);
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const line = (r: SeasonReport) =>
  `empty ${pct(r.emptyShare)} of ${r.pumpHours} pump-hours, ${r.km.toFixed(1)} km, ${r.visits} visits, ${pct(r.earlyVisitShare)} over half full, ${pct(r.missedShare)} turned away, ${r.checkins} check-ins, ${(r.elapsedMs / 1000).toFixed(1)} s`;
console.log(
  `season cross-check: ${devices} units, ${days} days, 1 crew, seed ${seed}; tolerance: empty share ±${TOLERANCE.emptyShare * 100} points, early visits ±${TOLERANCE.earlyVisitShare * 100} points, visits and km ±${TOLERANCE.visits * 100} %`,
);
const problems: string[] = [];
const policies = opt('policies', 'naive,none')
  .split(',')
  .map(
    (name) =>
      ({ naive: naivePolicy, none: nonePolicy })[name as 'naive' | 'none'] ??
      (() => {
        throw new Error(`unknown policy ${name} (naive, none)`);
      })(),
  );
for (const policy of policies) {
  const inProcess = await runSeason({ fleet, policy, crews, start, days, seed, portal: memoryPortal(fleet) });
  const clock = simulatedClock(start);
  const gw = await gatewayPortal(fleet, clock);
  let throughGateway: SeasonReport;
  try {
    throughGateway = await runSeason({ fleet, policy, crews, start, days, seed, portal: gw.portal, clock });
  } finally {
    await gw.close();
  }
  console.log(`  ${policy.name.padEnd(6)} in process:  ${line(inProcess)}`);
  console.log(
    `  ${policy.name.padEnd(6)} via gateway: ${line(throughGateway)}${gw.counts.refused ? `, ${gw.counts.refused} check-ins refused` : ''}`,
  );
  const rel = (a: number, b: number) => (Math.max(a, b) === 0 ? 0 : Math.abs(a - b) / Math.max(a, b));
  if (Math.abs(inProcess.emptyShare - throughGateway.emptyShare) > TOLERANCE.emptyShare)
    problems.push(`${policy.name}: empty share ${pct(inProcess.emptyShare)} vs ${pct(throughGateway.emptyShare)}`);
  if (Math.abs(inProcess.earlyVisitShare - throughGateway.earlyVisitShare) > TOLERANCE.earlyVisitShare)
    problems.push(`${policy.name}: early visits ${pct(inProcess.earlyVisitShare)} vs ${pct(throughGateway.earlyVisitShare)}`);
  if (rel(inProcess.visits, throughGateway.visits) > TOLERANCE.visits)
    problems.push(`${policy.name}: visits ${inProcess.visits} vs ${throughGateway.visits}`);
  if (rel(inProcess.km, throughGateway.km) > TOLERANCE.km)
    problems.push(`${policy.name}: km ${inProcess.km} vs ${throughGateway.km}`);
  if (inProcess.customers !== throughGateway.customers)
    problems.push(`${policy.name}: customers ${inProcess.customers} vs ${throughGateway.customers}`);
  if (gw.counts.refused) problems.push(`${policy.name}: ${gw.counts.refused} check-ins refused by the gateway`);
  console.log(
    `RESULT season_crosscheck_${policy.name}_in_process empty=${inProcess.emptyShare.toFixed(5)} km=${inProcess.km} visits=${inProcess.visits} early=${inProcess.earlyVisitShare.toFixed(4)}`,
  );
  console.log(
    `RESULT season_crosscheck_${policy.name}_gateway empty=${throughGateway.emptyShare.toFixed(5)} km=${throughGateway.km} visits=${throughGateway.visits} early=${throughGateway.earlyVisitShare.toFixed(4)} ms=${throughGateway.elapsedMs}`,
  );
}
if (problems.length) {
  console.error(`outside the tolerance:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else console.log('within the tolerance');
