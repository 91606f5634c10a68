import crypto from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { GATEWAY_LIMITS, type CheckinAnswer, type CheckinInput, type DeviceConfig } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { batches, batteryReadings, dataUsage, devices, levelReadings, pendingChanges, pumpEvents, pumpSettings, rentals, smsLog, deviceGroups } from '../db/schema.ts';
import { recomputeWarnings } from '../devices/device-warnings.ts';
import { ApiError } from '../lib/errors.ts';
import { keyHash, randomKey } from '../lib/crypto.ts';

type DeviceRow = typeof devices.$inferSelect;
const minutes = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The device-facing side (spec section 4 pending flags; issue: device gateway). A check-in stores what
 * the device measured, idempotently, reflects its latest state on the device row, settles the pending
 * changes it acknowledged, and answers the configuration it should run with.
 */
export function gatewayService(db: Db, secretKey: string, now: () => Date = () => new Date()) {
  return {
    /** `Authorization: Basic base64(serial:secret)`; 401 for anything else, with nothing stored. */
    async authenticate(header: string | undefined): Promise<DeviceRow> {
      const m = /^Basic\s+([A-Za-z0-9+/=]{4,400})$/.exec(header ?? '');
      const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
      const i = decoded.indexOf(':');
      const serial = i > 0 ? decoded.slice(0, i) : '';
      const secret = i > 0 ? decoded.slice(i + 1) : '';
      const [device] = serial ? await db.select().from(devices).where(eq(devices.serial, serial)).limit(1) : [];
      const expected = Buffer.from(device?.secretHash ?? '0'.repeat(64), 'hex');
      const given = Buffer.from(keyHash(secretKey, secret), 'hex');
      if (!device?.secretHash || !secret || expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) {
        throw new ApiError(401, { detail: 'Invalid device credentials.' }, { 'WWW-Authenticate': 'Basic realm="device"' });
      }
      return device;
    },

    /** A new secret for a device, shown once; the previous one stops working. */
    async rotateSecret(serial: string): Promise<{ serial: string; secret: string }> {
      const secret = randomKey(24);
      const [row] = await db.update(devices).set({ secretHash: keyHash(secretKey, secret) }).where(eq(devices.serial, serial)).returning({ serial: devices.serial });
      if (!row) throw ApiError.notFound('No device with this serial.');
      return { serial: row.serial, secret };
    },

    async checkin(device: DeviceRow, input: CheckinInput): Promise<CheckinAnswer> {
      const t = now();
      checkTimes(input, t);
      const accepted = await db.transaction(async (tx) => {
        // Lock the device row: two uploads of one device are applied one after the other.
        const [d] = await tx.select().from(devices).where(eq(devices.id, device.id)).for('update');
        const current = d!;
        const out = { dispenses: 0, duplicates: 0, levels: 0, batteries: 0, dataUsage: 0, sms: 0 };
        const consumed = new Map<number, number>();

        if (input.dispenses.length) {
          const rows = input.dispenses.map((e) => ({
            deviceId: current.id,
            pumpNumber: e.pump,
            seq: e.seq,
            occurredAt: new Date(e.at),
            volumeMl: e.ml,
            batchId: e.pump === 1 ? current.batchId : current.batch2Id,
          }));
          const inserted = await tx
            .insert(pumpEvents)
            .values(rows)
            .onConflictDoNothing({ target: [pumpEvents.deviceId, pumpEvents.pumpNumber, pumpEvents.seq] })
            .returning({ pump: pumpEvents.pumpNumber, ml: pumpEvents.volumeMl, batchId: pumpEvents.batchId });
          out.dispenses = inserted.length;
          out.duplicates = rows.length - inserted.length;
          const sum = (p: number, f: (r: (typeof inserted)[number]) => number) => inserted.filter((r) => r.pump === p).reduce((n, r) => n + f(r), 0);
          if (inserted.length) {
            await tx
              .update(devices)
              .set({
                dispenseCount1: sql`${devices.dispenseCount1} + ${sum(1, () => 1)}`,
                dispenseCount2: sql`${devices.dispenseCount2} + ${sum(2, () => 1)}`,
                dispensedMl1: sql`${devices.dispensedMl1} + ${sum(1, (r) => r.ml)}`,
                dispensedMl2: sql`${devices.dispensedMl2} + ${sum(2, (r) => r.ml)}`,
              })
              .where(eq(devices.id, current.id));
            for (const r of inserted) if (r.batchId) consumed.set(r.batchId, (consumed.get(r.batchId) ?? 0) + r.ml);
          }
        }
        if (input.levels.length) {
          const r = await tx
            .insert(levelReadings)
            .values(input.levels.map((l) => ({ deviceId: current.id, pumpNumber: l.pump, recordedAt: new Date(l.at), levelSensor: l.sensor, volumeRemain: l.volumeRemain })))
            .onConflictDoNothing()
            .returning({ p: levelReadings.pumpNumber });
          out.levels = r.length;
        }
        if (input.batteries.length) {
          const r = await tx
            .insert(batteryReadings)
            .values(input.batteries.map((b) => ({ deviceId: current.id, recordedAt: new Date(b.at), batteryVolt: b.volt, batteryPercent: b.percent })))
            .onConflictDoNothing()
            .returning({ p: batteryReadings.batteryPercent });
          out.batteries = r.length;
        }
        if (input.dataUsage.length) {
          const r = await tx
            .insert(dataUsage)
            .values(input.dataUsage.map((u) => ({ deviceId: current.id, recordedAt: new Date(u.at), kb: u.kb, signalQuality: u.signalQuality ?? null })))
            .onConflictDoNothing()
            .returning({ kb: dataUsage.kb });
          out.dataUsage = r.length;
        }
        if (input.sms.length) {
          const r = await tx
            .insert(smsLog)
            .values(input.sms.map((m) => ({ deviceId: current.id, direction: m.direction, message: m.message, createdWhen: new Date(m.at), seq: m.seq })))
            .onConflictDoNothing({ target: [smsLog.deviceId, smsLog.seq] })
            .returning({ id: smsLog.id });
          out.sms = r.length;
        }

        // The device row shows the latest reading of each kind, whatever order the uploads came in.
        const latest = (await tx.execute(sql`
          select
            (select level_sensor from level_readings where device_id = ${current.id} and pump_number = 1 order by recorded_at desc limit 1) as s1,
            (select volume_remain from level_readings where device_id = ${current.id} and pump_number = 1 order by recorded_at desc limit 1) as v1,
            (select level_sensor from level_readings where device_id = ${current.id} and pump_number = 2 order by recorded_at desc limit 1) as s2,
            (select volume_remain from level_readings where device_id = ${current.id} and pump_number = 2 order by recorded_at desc limit 1) as v2,
            (select battery_percent from battery_readings where device_id = ${current.id} order by recorded_at desc limit 1) as bp,
            (select battery_volt from battery_readings where device_id = ${current.id} order by recorded_at desc limit 1) as bv`)) as unknown as {
          rows: { s1: boolean | null; v1: number | null; s2: boolean | null; v2: number | null; bp: number | null; bv: number | null }[];
        };
        const l = latest.rows[0]!;
        const sleep = minutes(current.poweroffTime, 30);
        const next = new Date(t.getTime() + sleep * 60_000);
        await tx
          .update(devices)
          .set({
            lastSeenAt: t,
            isOnline: true,
            nextWakeupTime: next,
            ...(input.softwareVersion ? { coreVer: input.softwareVersion } : {}),
            ...(input.signalQuality !== undefined ? { signalQuality: input.signalQuality } : {}),
            ...(l.s1 != null ? { levelSensor1: l.s1, volumeRemain: l.v1! } : {}),
            ...(l.s2 != null ? { levelSensor2: l.s2, volumeRemain2: l.v2! } : {}),
            ...(l.bp != null ? { batteryPercent: l.bp, batteryVolt: l.bv } : {}),
            ...(input.faults?.pumpSensor !== undefined ? { pumpSensorFault: input.faults.pumpSensor } : {}),
            ...(input.location ? { reportedLat: input.location.lat, reportedLng: input.location.lng, reportedLocationAt: new Date(input.location.at) } : {}),
          })
          .where(eq(devices.id, current.id));

        // Settle what the device says it applied or could not apply; only its own pending changes.
        if (input.applied.length) {
          await tx
            .update(pendingChanges)
            .set({ status: 'applied', resolvedAt: t })
            .where(and(eq(pendingChanges.deviceId, current.id), eq(pendingChanges.status, 'pending'), inArray(pendingChanges.id, input.applied)));
        }
        for (const f of input.failed) {
          await tx
            .update(pendingChanges)
            .set({ status: 'failed', resolvedAt: t })
            .where(and(eq(pendingChanges.deviceId, current.id), eq(pendingChanges.status, 'pending'), eq(pendingChanges.id, f.id)));
        }
        await tx
          .update(pendingChanges)
          .set({ status: 'expired', resolvedAt: t })
          .where(and(eq(pendingChanges.deviceId, current.id), eq(pendingChanges.status, 'pending'), lt(pendingChanges.expiresAt, t)));
        // What is still pending is now expected at the next wake-up.
        await tx.update(pendingChanges).set({ expectedAt: next }).where(and(eq(pendingChanges.deviceId, current.id), eq(pendingChanges.status, 'pending')));
        await recomputeWarnings(tx, [current.id], t.toISOString().slice(0, 10));
        // What was dispensed leaves its batch. Many devices share a batch: one statement, rows in id order,
        // last before commit, so the shared rows are locked briefly and always in the same order (no deadlock).
        if (consumed.size) {
          const rows = [...consumed.entries()].sort((a, b) => a[0] - b[0]);
          await tx.execute(sql`
            update batches set remain_litres = greatest(0, batches.remain_litres - v.ml / 1000)
            from (values ${sql.join(rows.map(([id, ml]) => sql`(${id}::int, ${ml}::float8)`), sql`, `)}) as v(id, ml)
            where batches.id = v.id`);
        }
        return out;
      });
      return { serverTime: t.toISOString(), accepted, ...(await this.configFor(device.id)) };
    },

    /** The configuration and pending changes answered to a check-in. */
    async configFor(deviceId: number): Promise<Pick<CheckinAnswer, 'config' | 'pending' | 'nextCheckinBy'>> {
      const [row] = await db
        .select({ d: devices, s: pumpSettings, r: rentals, tz: deviceGroups.timezoneId })
        .from(devices)
        .leftJoin(pumpSettings, eq(pumpSettings.deviceId, devices.id))
        .leftJoin(rentals, eq(rentals.deviceId, devices.id))
        .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(eq(devices.id, deviceId));
      const { d, s, r, tz } = row!;
      const hhmm = (x: string | null) => (x ? x.slice(0, 5) : null);
      const config: DeviceConfig = {
        is_pause: d.isPause,
        is_activated: d.isActivated,
        is_enabled_maintenance: d.isEnabledMaintenance,
        is_enabled_vandalism: d.isEnabledVandalism,
        rental: r ? { start_date: r.startDate, end_date: r.endDate, start_time: hhmm(r.startTime), end_time: hhmm(r.endTime), pump_2_start_time: hhmm(r.pump2StartTime), pump_2_end_time: hhmm(r.pump2EndTime) } : null,
        pump: {
          steps_per_second: s?.stepsPerSecond ?? 300,
          steps_per_ml: s?.stepsPerMl ?? 30,
          ml_per_shot: s?.mlPerShot ?? 2.464,
          steps_per_second2: s?.stepsPerSecond2 ?? 300,
          steps_per_ml2: s?.stepsPerMl2 ?? 30,
          ml_per_shot2: s?.mlPerShot2 ?? 2.464,
          vandalism_max_shots: s?.vandalismMaxShots ?? 10,
          vandalism_interval: s?.vandalismInterval ?? 60,
        },
        poweroff_minutes: minutes(d.poweroffTime, 30),
        wakeup_minutes: minutes(d.wakeup1Time, 5),
        time_zone: tz,
      };
      const pending = await db
        .select({ id: pendingChanges.id, setting: pendingChanges.setting, desired: pendingChanges.desired })
        .from(pendingChanges)
        .where(and(eq(pendingChanges.deviceId, deviceId), eq(pendingChanges.status, 'pending')))
        .orderBy(pendingChanges.id);
      return { config, pending, nextCheckinBy: (d.nextWakeupTime ?? now()).toISOString() };
    },
  };
}
export type GatewayService = ReturnType<typeof gatewayService>;

/** Refuses timestamps from a clock far ahead of the server, or impossibly old: nothing of such an upload is stored. */
function checkTimes(input: CheckinInput, t: Date) {
  const max = t.getTime() + GATEWAY_LIMITS.futureToleranceMs;
  const min = t.getTime() - GATEWAY_LIMITS.maxAgeDays * 86_400_000;
  const groups: [string, { at: string }[]][] = [
    ['dispenses', input.dispenses],
    ['levels', input.levels],
    ['batteries', input.batteries],
    ['dataUsage', input.dataUsage],
    ['sms', input.sms],
  ];
  for (const [field, items] of groups) {
    for (const [i, e] of items.entries()) {
      const at = Date.parse(e.at);
      if (at > max) throw ApiError.field(field, `Item ${i} is dated ${e.at}, in the future by the server clock (${t.toISOString()}); check the device clock.`);
      if (at < min) throw ApiError.field(field, `Item ${i} is dated ${e.at}, older than ${GATEWAY_LIMITS.maxAgeDays} days.`);
    }
  }
}
