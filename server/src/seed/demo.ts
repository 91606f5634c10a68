import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { find as findTimezone } from 'geo-tz';
import {
  FL_OZ_TO_LITRES,
  PUMP_MODE_TSP,
  STEPS_PER_ML,
  STEPS_PER_SECOND,
  LOW_FLUID_THRESHOLD,
  deviceWarnings,
  warningFlags,
  type PumpType,
} from '@fleet/shared';
import type { Database } from '../db/client.ts';
import * as t from '../db/schema.ts';
import { hashPassword } from '../lib/crypto.ts';
import { BATCHES, BRANDS, DEMO_PASSWORD, PARISHES, SITES, SPOTS, USERS } from './demo-data.ts';
import { locationFromCounty } from '../places/index.ts';
import { seedTelemetry, TELEMETRY_STAGES } from './telemetry.ts';
import { createProgress, type Progress, type ProgressStage, type ProgressTty } from '../ops/progress.ts';

export type SeedOptions = {
  /** Days of telemetry history (a year by default, so every chart has data). */
  historyDays?: number;
  uploadsDir: string;
  now?: Date;
  log?: (msg: string) => void;
  /** Generate telemetry history (default true); the scale seed generates its own afterwards. */
  telemetry?: boolean;
  /** A terminal for the progress bar (process.stdout when it is one); otherwise plain lines through `log`. */
  tty?: ProgressTty | undefined;
  /** A caller's progress (the scale seed) that this seed's stages belong to, instead of its own. */
  progress?: Progress | undefined;
};

/** The fleet itself (accounts, brands, sites, devices, bills), before its telemetry. */
export const DEMO_FLEET_STAGE = { name: 'demo fleet: accounts, sites and devices', weight: 4 } as const satisfies ProgressStage;
export const demoSeedStages = (telemetry: boolean): ProgressStage[] => [DEMO_FLEET_STAGE, ...(telemetry ? TELEMETRY_STAGES : [])];

export type SeedSummary = {
  users: number;
  devices: number;
  sites: number;
  locations: number;
  telemetryRows: number;
  accounts: { email: string; password: string; role: string; userType: string }[];
};

const ML_PER_TSP = 4.92892;
/** The client whose invoice is overdue (Lapsed Leisure LLC): its site's devices are on its unpaid bill. */
const OVERDUE_CLIENT = 'overdue@demo.test';

/** Seeds the demo fleet into an empty database; does nothing (and answers null) if users exist. */
export async function seedDemoIfEmpty(database: Database, opts: SeedOptions): Promise<SeedSummary | null> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(t.users);
  if ((row?.n ?? 0) > 0) return null;
  return seedDemo(database, opts);
}

export async function seedDemo(database: Database, opts: SeedOptions): Promise<SeedSummary> {
  const now = opts.now ?? new Date();
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const log = opts.log ?? (() => undefined);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const brandLogos = writeBrandLogos(opts.uploadsDir);

  const stages = demoSeedStages(opts.telemetry !== false);
  const progress =
    opts.progress ??
    createProgress({
      title: 'demo seed',
      stages,
      log,
      tty: opts.tty,
      expectMs: opts.telemetry === false ? 2_000 : 40_000 * ((opts.historyDays ?? 365) / 365),
    });
  const counts = await progress.stage(DEMO_FLEET_STAGE.name, () =>
    database.db.transaction(async (tx) => {
      // Users
      const userIds = new Map<string, number>();
      for (const u of USERS) {
        const [row] = await tx
          .insert(t.users)
          .values({
            email: u.email,
            username: u.username,
            passwordHash,
            company: u.company,
            phone: u.phone,
            role: u.role,
            userType: u.userType,
            activated: u.activated,
            deactivatedReason: u.deactivatedReason ?? null,
            notifyEmail: true,
            notifyWeeklyReport: u.role === 'distributor',
            notifyDailyDispensation: u.email === 'distributor@demo.test',
          })
          .returning({ id: t.users.id });
        userIds.set(u.email, row!.id);
      }
      const uid = (email: string) => userIds.get(email)!;

      // Counties with their real outlines
      const locationIds = new Map<string, number>();
      for (const p of PARISHES) {
        const [row] = await tx
          .insert(t.locations)
          .values(locationFromCounty(p.fips, p.name, 'Louisiana'))
          .returning({ id: t.locations.id });
        locationIds.set(p.key, row!.id);
      }

      // Brands, logos and client assignments
      const brandIds = new Map<string, number>();
      for (const b of BRANDS) {
        const [row] = await tx
          .insert(t.brands)
          .values({ name: b.name, imageUrl: brandLogos.get(b.name)! })
          .returning({ id: t.brands.id });
        brandIds.set(b.name, row!.id);
        for (const email of b.clients) await tx.insert(t.brandClients).values({ brandId: row!.id, userId: uid(email) });
      }

      // Batches in every status
      const batchIds = new Map<string, { id: number; expired: boolean; recalled: boolean }>();
      for (const b of BATCHES) {
        const litres = b.flOz * FL_OZ_TO_LITRES;
        const [row] = await tx
          .insert(t.batches)
          .values({
            batchNo: b.batchNo,
            batchType: b.type,
            installDate: day(-b.installedDaysAgo),
            expireDate: day(b.expiresInDays),
            volumeLitres: litres,
            remainLitres: litres * b.remainShare,
            isRecalled: b.recalled,
            recalledAt: b.recalled ? new Date(now.getTime() - 7 * 86_400_000) : null,
          })
          .returning({ id: t.batches.id });
        batchIds.set(b.batchNo, { id: row!.id, expired: b.expiresInDays < 0, recalled: b.recalled });
      }

      // Sites and their devices
      let i = 0;
      const exclusive: { email: string; deviceId: number }[] = [];
      const tagDevices: number[] = [];
      const overdueDevices: number[] = [];
      for (const [siteIndex, site] of SITES.entries()) {
        const [group] = await tx
          .insert(t.deviceGroups)
          .values({
            name: site.name,
            address: `${site.name}, ${site.address}`,
            lat: site.lat,
            lng: site.lng,
            locationId: locationIds.get(site.parish)!,
            clientId: site.client ? uid(site.client) : null,
            timezoneId: findTimezone(site.lat, site.lng)[0] ?? 'America/Chicago',
          })
          .returning({ id: t.deviceGroups.id });
        for (let n = 1; n <= site.devices; n++, i++) {
          const spec = deviceState(i, siteIndex);
          const angle = (2 * Math.PI * n) / site.devices;
          const leftBatch = batchIds.get(spec.leftBatch)!;
          const rightBatch = spec.rightPumpType === 'Unspecified' ? null : batchIds.get(spec.rightBatch)!;
          const warnings = deviceWarnings({
            batteryPercent: spec.batteryPercent,
            leftPumpType: spec.leftPumpType,
            rightPumpType: spec.rightPumpType,
            levelSensor1: spec.levelSensor1,
            levelSensor2: true,
            volumeRemain: spec.volumeRemain,
            volumeRemain2: spec.volumeRemain2,
            neverReported: spec.neverReported,
            leftBatch,
            rightBatch,
            pumpSensorFault: spec.pumpSensorFault,
            failedRequest: spec.failedRequest,
          });
          const flags = warningFlags(warnings);
          const poweroff = 15 + (i % 4) * 15;
          // An online unit was last seen within its own sleep (so the schedule it promised still holds and the
          // first minute after a seed reads like any other); an offline one days ago.
          const lastSeen = spec.neverReported
            ? null
            : new Date(
                now.getTime() -
                  (spec.online ? Math.round(poweroff * 60_000 * frac(i * 0.754877666)) : (1 + (i % 4)) * 86_400_000),
              );
          const [device] = await tx
            .insert(t.devices)
            .values({
              serial: `SP24${String(i + 1).padStart(4, '0')}`,
              label: `${site.name} ${SPOTS[(n - 1) % SPOTS.length]}`,
              number: n,
              address: site.address,
              lat: Number((site.lat + 0.0005 * Math.sin(angle)).toFixed(6)),
              lng: Number((site.lng + 0.0006 * Math.cos(angle)).toFixed(6)),
              groupId: group!.id,
              brandId: brandIds.get(site.brand)!,
              locationEventType: site.type,
              leftPumpType: spec.leftPumpType,
              rightPumpType: spec.rightPumpType,
              batchId: leftBatch?.id ?? null,
              batch2Id: rightBatch?.id ?? null,
              levelSensor1: spec.levelSensor1,
              levelSensor2: true,
              pumpSensorFault: spec.pumpSensorFault,
              volumeRemain: spec.volumeRemain,
              volumeRemain2: spec.volumeRemain2,
              isPause: spec.paused,
              isActivated: spec.activated,
              active: spec.rental ? '1' : null,
              isOnline: spec.online,
              isRegistration: spec.registering,
              isMaintenance: spec.maintenance,
              isEnabledMaintenance: spec.maintenance,
              isEnabledVandalism: i % 4 === 1,
              warningLists: warnings,
              ...flags,
              batteryPercent: spec.batteryPercent,
              batteryVolt: Number((3.3 + (spec.batteryPercent / 100) * 0.9).toFixed(2)),
              signalQuality: spec.neverReported ? null : spec.signal,
              coreVer: spec.rightPumpType === 'Unspecified' ? (i % 3 === 0 ? '1.0.8' : '1.1.2') : '1.1.2',
              poweroffTime: String(poweroff),
              wakeup1Time: '5',
              nextWakeupTime: lastSeen
                ? new Date(lastSeen.getTime() + poweroff * 60_000)
                : new Date(now.getTime() - 60 * 24 * 60_000),
              lastSeenAt: lastSeen,
              simcardPhoneNumber: `+1504555${String(2000 + i)}`,
              imei: `35${String(9_100_000_000_000 + i * 7919).padStart(13, '0')}`,
              simSerialNumber: `8901260${String(10_000_000_000 + i * 104_729).padStart(12, '0')}`,
            })
            .returning({ id: t.devices.id });
          const deviceId = device!.id;
          const mode = 1 + (i % 8);
          await tx.insert(t.pumpSettings).values({
            deviceId,
            stepsPerSecond: STEPS_PER_SECOND,
            stepsPerMl: STEPS_PER_ML,
            mlPerShot: Number((PUMP_MODE_TSP[mode - 1]! * ML_PER_TSP).toFixed(3)),
            stepsPerSecond2: STEPS_PER_SECOND,
            stepsPerMl2: STEPS_PER_ML,
            mlPerShot2: Number((PUMP_MODE_TSP[(mode + 2) % 8]! * ML_PER_TSP).toFixed(3)),
            vandalismMaxShots: 10,
            vandalismInterval: 60,
          });
          if (spec.rental) {
            await tx.insert(t.rentals).values({
              deviceId,
              startDate: day(-10 - (i % 5)),
              endDate: day(20 + (i % 30)),
              startTime: '08:00',
              endTime: '18:00',
              pump2StartTime: spec.rightPumpType === 'Unspecified' ? null : '09:00',
              pump2EndTime: spec.rightPumpType === 'Unspecified' ? null : '17:00',
            });
          }
          if (spec.failedRequest) {
            // A pump setup the device reported it could not apply: FAILED_REQUEST until someone asks again.
            await tx.insert(t.pendingChanges).values({
              deviceId,
              kind: 'other',
              setting: 'pump_setting',
              desired: { requested: true },
              status: 'failed',
              requestedBy: uid('distributor@demo.test'),
              requestedAt: new Date(now.getTime() - 2 * 86_400_000),
              expectedAt: new Date(now.getTime() - 2 * 86_400_000 + 15 * 60_000),
              expiresAt: new Date(now.getTime() + 86_400_000),
              resolvedAt: new Date(now.getTime() - 2 * 86_400_000 + 20 * 60_000),
            });
          }
          if (spec.pending) {
            await tx.insert(t.pendingChanges).values({
              deviceId,
              kind: spec.pending,
              setting: spec.pending === 'activation' ? 'active' : spec.pending === 'rental' ? 'rental' : 'pump_setting',
              desired: spec.pending === 'activation' ? { is_activated: !spec.activated } : { requested: true },
              requestedBy: uid('distributor@demo.test'),
              requestedAt: new Date(now.getTime() - 40 * 60_000),
              expectedAt: new Date(now.getTime() + 15 * 60_000),
              expiresAt: new Date(now.getTime() + 3 * 86_400_000),
            });
          }
          if (site.name === 'Jazz & Heritage Festival' || (site.name === 'Audubon Park' && n <= 4))
            exclusive.push({ email: 'partner@demo.test', deviceId });
          if (site.name === 'Fontainebleau State Park') exclusive.push({ email: 'partner2@demo.test', deviceId });
          if (site.name === 'Nicholls State University') exclusive.push({ email: 'partner3@demo.test', deviceId });
          if (site.name === 'Lafitte Town Park') tagDevices.push(deviceId);
          if (site.client === OVERDUE_CLIENT) overdueDevices.push(deviceId);
        }
      }
      for (const x of exclusive) await tx.insert(t.userExclusiveDevices).values({ userId: uid(x.email), deviceId: x.deviceId });

      // Devices provisioned but not yet placed (the avaliableDevice list)
      for (let k = 1; k <= 6; k++) {
        await tx.insert(t.devices).values({
          serial: `SP26${String(k).padStart(4, '0')}`,
          leftPumpType: 'Sunscreen',
          rightPumpType: k % 2 ? 'Sanitizer' : 'Unspecified',
          coreVer: '1.1.2',
          isActivated: true,
        });
      }

      // Report recipients, a saved tag, subscriptions
      const dist = uid('distributor@demo.test');
      await tx.insert(t.reportEmails).values(
        [
          { ownerId: dist, name: 'Operations', email: 'ops@demo.test', isEnable: true },
          { ownerId: dist, name: 'Finance', email: 'finance@demo.test', isEnable: false },
          { ownerId: uid('client@demo.test'), name: 'Parks Manager', email: 'parks@demo.test', isEnable: true },
          // The demo's recipients have confirmed (migration 0018: those on a list before it count as confirmed).
        ].map((e) => ({ ...e, confirmedAt: new Date() })),
      );
      const [tag] = await tx
        .insert(t.reportTags)
        .values({ ownerId: dist, name: 'Lafitte', isSavedTag: true })
        .returning({ id: t.reportTags.id });
      for (const deviceId of tagDevices) await tx.insert(t.reportTagDevices).values({ tagId: tag!.id, deviceId });

      const placed = await tx
        .select({ id: t.devices.id })
        .from(t.devices)
        .where(sql`${t.devices.groupId} is not null`);
      const bill = async (
        userId: number,
        uidText: string,
        productName: string,
        name: string,
        price: number,
        status: string,
        dueOffset: number,
        deviceIds: number[],
      ) => {
        const [b] = await tx
          .insert(t.bills)
          .values({
            userId,
            billUid: uidText,
            productName,
            name,
            priceUsd: price,
            status,
            dueDate: day(dueOffset),
            paymentType: 'SUBSCRIPTION',
            paidAt: status === 'ACTIVE' ? now : null,
          })
          .returning({ id: t.bills.id });
        for (const deviceId of deviceIds) await tx.insert(t.billDevices).values({ billId: b!.id, deviceId });
      };
      // The distributor pays the Basic Plan of every placed device but Lapsed Leisure's, which that company
      // checked out itself and left unpaid 20 days past its due date (its account is deactivated): a device is
      // on a plan through one bill only.
      const lapsed = new Set(overdueDevices);
      await bill(
        dist,
        'DEMO-BASIC-0001',
        'basic-plan',
        'Basic Plan (Contract)',
        17,
        'ACTIVE',
        20,
        placed.filter((d) => !lapsed.has(d.id)).map((d) => d.id),
      );
      await bill(
        dist,
        'DEMO-SIM-0001',
        'sim-card',
        'Sim Card',
        5,
        'ACTIVE',
        20,
        placed.map((d) => d.id),
      );
      await bill(
        dist,
        'DEMO-MAINT-0001',
        'maintenance',
        'Maintenance',
        7.5,
        'PENDING',
        30,
        placed.slice(0, 20).map((d) => d.id),
      );
      await bill(
        uid(OVERDUE_CLIENT),
        'DEMO-BASIC-0099',
        'basic-plan',
        'Basic Plan (Contract)',
        17,
        'OVERDUE',
        -20,
        overdueDevices,
      );

      return { users: USERS.length, devices: placed.length, sites: SITES.length, locations: PARISHES.length };
    }),
  );

  const telemetryRows =
    opts.telemetry === false ? 0 : await seedTelemetry(database, { historyDays: opts.historyDays ?? 365, now, progress });
  // Its own progress ends here; a caller's (the scale seed) goes on with its next stages.
  if (!opts.progress) progress.done();
  log(`demo fleet seeded: ${counts.devices} devices on ${counts.sites} sites, ${telemetryRows} telemetry rows`);
  return {
    ...counts,
    telemetryRows,
    accounts: USERS.filter((u) => ['distributor@demo.test', 'client@demo.test', 'partner@demo.test'].includes(u.email)).map(
      (u) => ({
        email: u.email,
        password: DEMO_PASSWORD,
        role: u.role,
        userType: u.userType,
      }),
    ),
  };
}

/** A deterministic spread of states over the fleet, by device index. */
/** The fractional part: with an irrational step, frac(i * step) spreads i = 0, 1, 2... evenly over [0, 1). */
const frac = (x: number) => x - Math.floor(x);

/**
 * Levels of the units the live simulator plays, staggered evenly between the low-fluid line and a full
 * reservoir (a low-discrepancy sequence per pump), so they do not run low together: the demo starts as a
 * fleet in its steady state, where a pump runs low now and then and is refilled soon after.
 */
const staggered = (i: number, step: number) =>
  Math.round(LOW_FLUID_THRESHOLD + 30 + (1500 - LOW_FLUID_THRESHOLD - 30) * frac(0.31 + i * step));

/**
 * The demo's units by index. Warnings that come from a unit's own readings (low battery, low or empty
 * reservoir, never reported) and being offline are showcased on the units the simulator leaves still
 * (DEMO_STILL_SERIALS: indexes 2, 15, 20, 62), where they hold; a played unit starts healthy, online
 * and staggered, or its warning would vanish at its first check-in (the first-minute spike of issue 47).
 * The played units seeded with a low battery have a failing battery in the simulator (it holds little
 * charge), so theirs holds too.
 */
function deviceState(i: number, siteIndex: number) {
  const has = (...xs: number[]) => xs.includes(i);
  const still = has(2, 15, 20, 62);
  const dual = i % 5 === 0 || i % 5 === 2;
  const sanitizerOnly = !dual && i % 11 === 7;
  const leftPumpType: PumpType = sanitizerOnly ? 'Sanitizer' : 'Sunscreen';
  const rightPumpType: PumpType = dual ? 'Sanitizer' : 'Unspecified';
  let leftBatch: string = sanitizerOnly ? 'SAN-2601' : siteIndex % 2 ? 'SPF-2602' : 'SPF-2601';
  if (!sanitizerOnly) {
    if (has(3, 17, 40)) leftBatch = 'SPF-2510';
    if (has(12, 33)) leftBatch = 'SPF-2504';
    if (has(21, 50)) leftBatch = 'SPF-2507';
  }
  const neverReported = has(62);
  return {
    leftPumpType,
    rightPumpType,
    leftBatch,
    rightBatch: i % 3 === 0 ? 'SAN-2509' : 'SAN-2601',
    online: !still,
    neverReported,
    registering: has(18, 60, 62),
    paused: has(8, 24, 44, 58),
    maintenance: has(10, 36, 52),
    activated: !has(35, 56),
    rental: has(4, 9, 20, 31, 42, 53),
    pending: has(4) ? ('rental' as const) : has(11) ? ('activation' as const) : has(23) ? ('other' as const) : null,
    batteryPercent: has(2, 19, 30, 41, 49, 63) ? 12 + ((i * 7) % 34) : 70 + ((i * 17) % 31),
    signal: 20 + ((i * 13) % 76),
    levelSensor1: true,
    // Reported by the gateway; kept by every check-in that does not report the fault cleared.
    pumpSensorFault: has(13),
    failedRequest: has(16),
    volumeRemain: has(15) ? 120 + ((i * 11) % 120) : staggered(i, 0.618034),
    volumeRemain2: dual ? (has(20) ? 180 : staggered(i, 0.414214)) : 0,
  };
}

/** Writes a simple SVG logo per brand into uploads and answers their URLs. */
function writeBrandLogos(uploadsDir: string): Map<string, string> {
  const dir = path.join(uploadsDir, 'brands');
  fs.mkdirSync(dir, { recursive: true });
  const urls = new Map<string, string>();
  for (const b of BRANDS) {
    const slug = b.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <rect width="256" height="256" rx="48" fill="${b.color}"/>
  <circle cx="196" cy="60" r="28" fill="#fff" fill-opacity="0.35"/>
  <text x="128" y="150" font-family="Helvetica, Arial, sans-serif" font-size="96" font-weight="700" fill="#fff" text-anchor="middle">${b.initials}</text>
  <text x="128" y="206" font-family="Helvetica, Arial, sans-serif" font-size="22" fill="#fff" text-anchor="middle">${b.name}</text>
</svg>`;
    fs.writeFileSync(path.join(dir, `${slug}.svg`), svg);
    urls.set(b.name, `/uploads/brands/${slug}.svg`);
  }
  return urls;
}
