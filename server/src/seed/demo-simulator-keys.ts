import crypto from 'node:crypto';
import { and, eq, isNull, like, notInArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { deviceGroups, devices } from '../db/schema.ts';
import { keyHash } from '../lib/crypto.ts';
import { DEMO_STILL_SERIALS } from './demo-data.ts';

/** The placed devices the demo seed creates (seed/demo.ts numbers them SP24xxxx; SP26xxxx are unplaced). */
const DEMO_PLACED_SERIALS = 'SP24%';

/**
 * The secret the in-process demo simulator gives a demo device: derived from SECRET_KEY (kept per
 * DATA_DIR in development, config.ts) and the serial, so every start finds the same secret and nothing
 * is stored beside the database.
 */
export function demoDeviceSecret(secretKey: string, serial: string): string {
  return crypto.createHmac('sha256', secretKey).update(`demo-simulator-device:${serial}`).digest('hex').slice(0, 48);
}

/**
 * The demo devices the in-process simulator plays, each with its secret. A restart keeps devices
 * working: a device keeps the secret it has, and the simulator never re-keys a device it did not key.
 *  - a seeded demo device that was never given a secret gets the derived one (one conditional update,
 *    so a rotation racing it wins);
 *  - a device whose secret is already the derived one is played as it is (no write);
 *  - any other device (a secret rotated by a distributor, a device `npm run simulate` provisioned, a real
 *    device, a unit left still on purpose) is neither touched nor played.
 */
export async function demoSimulatorDevices(db: Db, secretKey: string) {
  const placed = await db
    .select({
      serial: devices.serial,
      secretHash: devices.secretHash,
      leftPumpType: devices.leftPumpType,
      rightPumpType: devices.rightPumpType,
      timezone: deviceGroups.timezoneId,
      // The state the unit was last seen in: the simulator plays on from it rather than from a fresh unit.
      volumeRemain: devices.volumeRemain,
      volumeRemain2: devices.volumeRemain2,
      batteryPercent: devices.batteryPercent,
    })
    .from(devices)
    .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
    // The demo's still units keep the warnings that come from their own readings (seed/demo-data.ts).
    .where(and(like(devices.serial, DEMO_PLACED_SERIALS), notInArray(devices.serial, [...DEMO_STILL_SERIALS])))
    .orderBy(devices.serial);
  const played: {
    serial: string;
    secret: string;
    leftPumpType: string;
    rightPumpType: string;
    timezone: string | null;
    volumeRemain: number | null;
    volumeRemain2: number | null;
    batteryPercent: number | null;
  }[] = [];
  let keyed = 0;
  for (const d of placed) {
    const secret = demoDeviceSecret(secretKey, d.serial);
    const hash = keyHash(secretKey, secret);
    if (d.secretHash === null) {
      const [row] = await db
        .update(devices)
        .set({ secretHash: hash })
        .where(and(eq(devices.serial, d.serial), isNull(devices.secretHash)))
        .returning({ serial: devices.serial });
      if (!row) continue;
      keyed += 1;
    } else if (d.secretHash !== hash) {
      continue;
    }
    const { secretHash: _hash, ...rest } = d;
    played.push({ ...rest, secret });
  }
  return { devices: played, keyed, skipped: placed.length - played.length };
}
