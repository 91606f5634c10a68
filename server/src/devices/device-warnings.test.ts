/**
 * The rules the database applies for speed agree with their one TypeScript source, on the same table of
 * cases, run on a real PGlite database with the real migrations:
 * - FAILED_REQUEST (hasFailedRequest): recomputeWarnings' failedRequestSql and the 'superseded' test of
 *   gateway_checkin_store (migration 0006) through a real check-in;
 * - the batch-expired test (isBatchExpired): the warnings of both paths and the batches a device form may
 *   choose (batchesRepository's choosableOn filter);
 * - low battery (deviceWarnings' BATTERY): the overview's low_battery_devices count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, deviceWarnings, hasFailedRequest, isBatchExpired, type ChangeOutcome } from '@fleet/shared';
import { openDatabase, type Database } from '../db/client.ts';
import { batches, deviceGroups, devices, pendingChanges } from '../db/schema.ts';
import { keyHash } from '../lib/crypto.ts';
import { batchesRepository } from '../batches/batches.repository.ts';
import { gatewayServiceOf } from '../gateway/index.ts';
import { overviewRepository } from '../overview/overview.repository.ts';
import { recomputeWarnings } from './device-warnings.ts';

const KEY = 'w'.repeat(32);
const SERIAL = 'RULE0001';
const SECRET = 'rule-secret';
const NOW = new Date();
const TODAY = NOW.toISOString().slice(0, 10);
const minute = (m: number) => new Date(NOW.getTime() - 3_600_000 + m * 60_000);

let database: Database;
let deviceId: number;
let batchId: number;

beforeAll(async () => {
  database = await openDatabase({});
  const [batch] = await database.db
    .insert(batches)
    .values({
      batchNo: 'RULE-1',
      batchType: 1,
      installDate: addDays(TODAY, -100),
      expireDate: addDays(TODAY, 100),
      volumeLitres: 10,
      remainLitres: 10,
    })
    .returning({ id: batches.id });
  batchId = batch!.id;
  const [device] = await database.db
    .insert(devices)
    .values({
      serial: SERIAL,
      secretHash: keyHash(KEY, SECRET),
      leftPumpType: 'Sunscreen',
      rightPumpType: 'Unspecified',
      batchId,
      volumeRemain: 900,
      levelSensor1: true,
    })
    .returning({ id: devices.id });
  deviceId = device!.id;
}, 60_000);
afterAll(async () => {
  await database?.close();
});

const warningsNow = async () =>
  (await database.db.select({ list: devices.warningLists }).from(devices).where(eq(devices.id, deviceId)))[0]!.list as string[];
/** The two SQL paths: a recompute (batch edits, fleet health, device writes) and a device's check-in. */
async function bothPaths(): Promise<{ recomputed: string[]; checkedIn: string[] }> {
  await recomputeWarnings(database.db, [deviceId], TODAY);
  const recomputed = await warningsNow();
  await gatewayServiceOf(database.db, { secretKey: KEY }, () => NOW).checkin(
    `Basic ${Buffer.from(`${SERIAL}:${SECRET}`).toString('base64')}`,
    { sentAt: NOW.toISOString() },
  );
  return { recomputed, checkedIn: await warningsNow() };
}

type Case = [name: string, changes: { setting: string; status: string; at: number }[]];
const failedRequestCases: Case[] = [
  ['no changes', []],
  ['one failed', [{ setting: 'active', status: 'failed', at: 0 }]],
  ['one expired', [{ setting: 'active', status: 'expired', at: 0 }]],
  [
    'applied and pending only',
    [
      { setting: 'active', status: 'applied', at: 0 },
      { setting: 'rental', status: 'pending', at: 1 },
    ],
  ],
  [
    'failed, then asked again (pending)',
    [
      { setting: 'active', status: 'failed', at: 0 },
      { setting: 'active', status: 'pending', at: 1 },
    ],
  ],
  [
    'expired, then asked again and applied',
    [
      { setting: 'rental', status: 'expired', at: 0 },
      { setting: 'rental', status: 'applied', at: 5 },
    ],
  ],
  [
    'failed, then asked again and failed again',
    [
      { setting: 'active', status: 'failed', at: 0 },
      { setting: 'active', status: 'failed', at: 5 },
    ],
  ],
  [
    'failed, only another setting asked since',
    [
      { setting: 'active', status: 'failed', at: 0 },
      { setting: 'rental', status: 'applied', at: 1 },
    ],
  ],
  [
    'failed after an older applied request',
    [
      { setting: 'active', status: 'applied', at: 0 },
      { setting: 'active', status: 'expired', at: 1 },
    ],
  ],
  [
    'two failed at the same instant',
    [
      { setting: 'active', status: 'failed', at: 2 },
      { setting: 'active', status: 'failed', at: 2 },
    ],
  ],
  [
    'cancelled, then failed',
    [
      { setting: 'maintenance', status: 'cancelled', at: 0 },
      { setting: 'maintenance', status: 'failed', at: 3 },
    ],
  ],
];

describe('FAILED_REQUEST: SQL and TypeScript agree', () => {
  it.each(failedRequestCases)('%s', async (_name, changes) => {
    await database.db.delete(pendingChanges).where(eq(pendingChanges.deviceId, deviceId));
    if (changes.length) {
      await database.db.insert(pendingChanges).values(
        changes.map((c) => ({
          deviceId,
          kind: 'config',
          setting: c.setting,
          desired: true,
          status: c.status,
          requestedAt: minute(c.at),
        })),
      );
    }
    const expected = hasFailedRequest(
      changes.map((c): ChangeOutcome => ({ setting: c.setting, status: c.status, requestedAt: minute(c.at) })),
    );
    const { recomputed, checkedIn } = await bothPaths();
    expect(recomputed.includes('FAILED_REQUEST'), 'recomputeWarnings').toBe(expected);
    expect(checkedIn.includes('FAILED_REQUEST'), 'gateway check-in').toBe(expected);
  });
});

describe('batch expired: SQL and TypeScript agree', () => {
  it.each([-400, -1, 0, 1, 30])('expiry %i days from today', async (days) => {
    await database.db.delete(pendingChanges).where(eq(pendingChanges.deviceId, deviceId));
    const expireDate = addDays(TODAY, days);
    await database.db.update(batches).set({ expireDate }).where(eq(batches.id, batchId));
    const expected = isBatchExpired(expireDate, TODAY);
    expect(expected).toBe(days < 0);
    const { recomputed, checkedIn } = await bothPaths();
    expect(recomputed.includes('BATCH_EXPIRED'), 'recomputeWarnings').toBe(expected);
    expect(checkedIn.includes('BATCH_EXPIRED'), 'gateway check-in').toBe(expected);
    const choosable = await batchesRepository(database.db).list({
      scope: undefined,
      onlyFedInScope: false,
      id: batchId,
      choosableOn: TODAY,
    });
    expect(choosable.length === 0, 'choosable batches').toBe(expected);
  });
});

describe('low battery: SQL and TypeScript agree', () => {
  it.each([null, 0, 49, 49.9, 50, 50.1, 100])('battery at %s %%', async (percent) => {
    // The overview counts placed devices only.
    const [site] = await database.db
      .insert(deviceGroups)
      .values({ name: 'Rules', address: '1 Rule St', lat: 29.95, lng: -90.07 })
      .returning({ id: deviceGroups.id });
    await database.db.update(devices).set({ groupId: site!.id, batteryPercent: percent }).where(eq(devices.id, deviceId));
    const expected = deviceWarnings({
      batteryPercent: percent,
      leftPumpType: 'Unspecified',
      rightPumpType: 'Unspecified',
      levelSensor1: true,
      levelSensor2: true,
      volumeRemain: 900,
      volumeRemain2: 900,
      neverReported: false,
    }).includes('BATTERY');
    const counts = await overviewRepository(database.db).counts(undefined, undefined);
    expect(counts.low_battery_devices === 1, 'overview count').toBe(expected);
    await recomputeWarnings(database.db, [deviceId], TODAY);
    expect((await warningsNow()).includes('BATTERY'), 'recomputeWarnings').toBe(expected);
  });
});
