import crypto from 'node:crypto';
import {
  batchDayOf,
  batchWarningState,
  checkinSchema,
  deviceWarnings,
  provisionDevicesSchema,
  serialSchema,
  warningFlags,
  GATEWAY_LIMITS,
  type CheckinAnswer,
  type CheckinInput,
  type DeviceConfig,
} from '@fleet/shared';
import { isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { keyHash, randomKey } from '../lib/crypto.ts';
import type { DeviceRow, GatewayRepository } from './gateway.repository.ts';

export type GatewayServiceDeps = {
  repo: GatewayRepository;
  /** Keys the device secrets' hashes (SECRET_KEY). */
  secretKey: string;
  now?: () => Date;
};
const minutes = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The device-facing side (spec section 4 pending flags; issue: device gateway). A check-in stores what
 * the device measured, idempotently, reflects its latest state on the device row, settles the pending
 * changes it acknowledged, and answers the configuration it should run with.
 */
export function gatewayService({ repo, secretKey, now = () => new Date() }: GatewayServiceDeps) {
  const requireDistributor = (viewer: ScopeViewer) => {
    if (!isDistributor(viewer)) throw ApiError.forbidden();
  };
  return {
    /** `Authorization: Basic base64(serial:secret)`; 401 for anything else, with nothing stored. */
    async authenticate(header: string | undefined): Promise<DeviceRow> {
      const { serial, secret } = credentials(header);
      const device = await repo.deviceBySerial(serial);
      const expected = Buffer.from(device?.secretHash ?? '0'.repeat(64), 'hex');
      const given = Buffer.from(keyHash(secretKey, secret), 'hex');
      if (!device?.secretHash || expected.length !== given.length || !crypto.timingSafeEqual(expected, given))
        throw unauthorized();
      return device;
    },

    /** A new secret for a device, shown once; the previous one stops working. */
    async rotateSecret(serial: string): Promise<{ serial: string; secret: string }> {
      const secret = randomKey(24);
      const stored = await repo.setSecretHash(serial, keyHash(secretKey, secret));
      if (!stored) throw ApiError.notFound('No device with this serial.');
      return { serial: stored, secret };
    },

    /** POST /api/v1/deviceSecret/{serial}: a distributor rotates a device's secret. */
    async rotateSecretFor(viewer: ScopeViewer, serial: unknown): Promise<{ serial: string; secret: string }> {
      requireDistributor(viewer);
      return this.rotateSecret(parse(serialSchema, serial));
    },

    /** POST /api/v1/provisionDevices: a distributor registers new serials, unplaced; none when any is taken. */
    async provision(viewer: ScopeViewer, body: unknown): Promise<{ provisioned: number }> {
      requireDistributor(viewer);
      const input = parse(provisionDevicesSchema, body);
      const serials = [...new Set(input.serials)];
      const taken = await repo.registeredSerials(serials);
      if (taken.length) throw ApiError.field('serials', `Already registered: ${taken.slice(0, 20).join(', ')}`);
      await repo.insertDevices(
        serials.map((serial) => ({
          serial,
          leftPumpType: input.leftPumpType,
          rightPumpType: input.rightPumpType,
          coreVer: input.coreVer,
        })),
      );
      return { provisioned: serials.length };
    },

    /**
     * One check-in: authentication, storage and the answer in one transaction of two PL/pgSQL calls
     * (migration 0006; the hot path of the gateway, issue budgets: >= 10,000 data points/s, p99 < 100 ms at
     * 200 check-ins/s). The functions keep their plans per connection; on PostgreSQL the check-in takes two
     * round trips (see checkinTransaction):
     *   1. gateway_checkin_store authenticates (serial and the keyed hash of the secret), locks the device
     *      row (uploads of one device serialise), stores the upload idempotently, settles pending changes,
     *      and answers what the rules below need and the configuration;
     *   2. here, the shared warning rules on the device row as it will be;
     *   3. gateway_checkin_finish: ONE update of the device row (the list-JSON trigger fires once), pending
     *      changes expected at the next wake-up, batch consumption last (rows locked in id order).
     * A body that does not validate is checked against the credentials first: a bad secret answers 401
     * before any 400, and nothing is stored either way.
     */
    async checkin(header: string | undefined, body: unknown): Promise<CheckinAnswer> {
      const { serial, secret } = credentials(header);
      const t = now();
      let input: CheckinInput;
      try {
        input = parse(checkinSchema, body);
        checkTimes(input, t);
      } catch (err) {
        await this.authenticate(header);
        throw err;
      }
      const iso = (at: string) => new Date(at).toISOString(); // what binding `new Date(at)` stored before
      const tIso = t.toISOString();
      const upload = JSON.stringify({
        pe: input.dispenses.map((e) => ({ pump: e.pump, seq: e.seq, at: iso(e.at), ml: e.ml })),
        lv: input.levels.map((l) => ({ pump: l.pump, at: iso(l.at), sensor: l.sensor, v: l.volumeRemain })),
        bt: input.batteries.map((b) => ({ at: iso(b.at), volt: b.volt, pct: b.percent })),
        du: input.dataUsage.map((u) => ({ at: iso(u.at), kb: u.kb, sq: u.signalQuality ?? null })),
        sm: input.sms.map((m) => ({ dir: m.direction, msg: m.message, at: iso(m.at), seq: m.seq })),
        applied: input.applied,
        failed: input.failed.map((f) => f.id),
      });
      const hash = keyHash(secretKey, secret);
      return repo.checkinTransaction(async (calls) => {
        // 1. Authenticate, lock, store, settle, read.
        const res = await calls.store(serial, hash, tIso, upload);
        if (!res) throw unauthorized();
        const sleep = minutes(res.poweroff_time, 30);
        const nextIso = new Date(t.getTime() + sleep * 60_000).toISOString();

        const inserted = res.pe;
        const accepted = {
          dispenses: inserted.length,
          duplicates: input.dispenses.length - inserted.length,
          levels: res.lv,
          batteries: res.bt,
          dataUsage: res.du,
          sms: res.sm,
        };
        const sum = (p: number, f: (r: (typeof inserted)[number]) => number) =>
          inserted.filter((r) => r.pump === p).reduce((n, r) => n + f(r), 0);
        const consumed = new Map<number, number>();
        for (const r of inserted) if (r.batch) consumed.set(r.batch, (consumed.get(r.batch) ?? 0) + r.ml);

        // Pending changes after this check-in: the statement's own updates merged into what it saw.
        const statusNow = new Map(res.settled.map((c) => [c.id, c.status]));
        const changes = res.changes.map((c) => ({ ...c, status: statusNow.get(c.id) ?? c.status }));
        const pending = changes
          .filter((c) => c.status === 'pending')
          .map((c) => ({ id: c.id, setting: c.setting, desired: c.desired }));

        // 2. The device row as it will be, for the shared warning rules (what recomputeWarnings read before).
        const after = {
          batteryPercent: res.bp != null ? res.bp : res.battery_percent,
          levelSensor1: res.s1 != null ? res.s1 : res.level_sensor1,
          volumeRemain: res.s1 != null ? res.v1! : res.volume_remain,
          levelSensor2: res.s2 != null ? res.s2 : res.level_sensor2,
          volumeRemain2: res.s2 != null ? res.v2! : res.volume_remain2,
          pumpSensorFault: input.faults?.pumpSensor !== undefined ? input.faults.pumpSensor : res.pump_sensor_fault,
        };
        const today = batchDayOf(t);
        const list = deviceWarnings({
          ...after,
          leftPumpType: res.left_pump_type,
          rightPumpType: res.right_pump_type,
          neverReported: false, // last_seen_at is set now
          leftBatch: batchWarningState(res.l_exp, res.l_rec, today),
          rightBatch: batchWarningState(res.r_exp, res.r_rec, today),
          // A change the device could not apply, or never picked up in time, until a newer request replaces it.
          failedRequest: changes.some((c) => (c.status === 'failed' || c.status === 'expired') && !c.superseded),
        });
        const flags = warningFlags(list);

        // 3. Apply: an absent field keeps its column.
        const finish = {
          id: res.id,
          t: tIso,
          next: nextIso,
          warnings: list,
          ...flags,
          dc1: sum(1, () => 1),
          dc2: sum(2, () => 1),
          ml1: sum(1, (r) => r.ml),
          ml2: sum(2, (r) => r.ml),
          ...(input.softwareVersion ? { coreVer: input.softwareVersion } : {}),
          ...(input.signalQuality !== undefined ? { signal: input.signalQuality } : {}),
          ...(res.s1 != null ? { s1: res.s1, v1: res.v1 } : {}),
          ...(res.s2 != null ? { s2: res.s2, v2: res.v2 } : {}),
          ...(res.bp != null ? { bp: res.bp, bv: res.bv } : {}),
          ...(input.faults?.pumpSensor !== undefined ? { fault: input.faults.pumpSensor } : {}),
          ...(input.location ? { lat: input.location.lat, lng: input.location.lng, locAt: iso(input.location.at) } : {}),
          consumed: [...consumed.entries()].sort((a, b) => a[0] - b[0]),
        };
        await calls.finish(JSON.stringify(finish));

        // The answer, from what was read under the lock.
        const hhmm = (x: string | null) => (x ? x.slice(0, 5) : null);
        const config: DeviceConfig = {
          is_pause: res.is_pause,
          is_activated: res.is_activated,
          is_enabled_maintenance: res.is_enabled_maintenance,
          is_enabled_vandalism: res.is_enabled_vandalism,
          rental: res.has_rental
            ? {
                start_date: res.start_date!,
                end_date: res.end_date!,
                start_time: hhmm(res.start_time),
                end_time: hhmm(res.end_time),
                pump_2_start_time: hhmm(res.pump_2_start_time),
                pump_2_end_time: hhmm(res.pump_2_end_time),
              }
            : null,
          pump: {
            steps_per_second: res.steps_per_second ?? 300,
            steps_per_ml: res.steps_per_ml ?? 30,
            ml_per_shot: res.ml_per_shot ?? 2.464,
            steps_per_second2: res.steps_per_second2 ?? 300,
            steps_per_ml2: res.steps_per_ml2 ?? 30,
            ml_per_shot2: res.ml_per_shot2 ?? 2.464,
            vandalism_max_shots: res.vandalism_max_shots ?? 10,
            vandalism_interval: res.vandalism_interval ?? 60,
          },
          poweroff_minutes: sleep,
          wakeup_minutes: minutes(res.wakeup1_time, 5),
          time_zone: res.timezone_id,
        };
        return { serverTime: tIso, accepted, config, pending, nextCheckinBy: nextIso };
      });
    },

    /** The configuration and pending changes answered to a check-in. */
    async configFor(deviceId: number): Promise<Pick<CheckinAnswer, 'config' | 'pending' | 'nextCheckinBy'>> {
      const { d, s, r, tz } = (await repo.configRow(deviceId))!;
      const hhmm = (x: string | null) => (x ? x.slice(0, 5) : null);
      const config: DeviceConfig = {
        is_pause: d.isPause,
        is_activated: d.isActivated,
        is_enabled_maintenance: d.isEnabledMaintenance,
        is_enabled_vandalism: d.isEnabledVandalism,
        rental: r
          ? {
              start_date: r.startDate,
              end_date: r.endDate,
              start_time: hhmm(r.startTime),
              end_time: hhmm(r.endTime),
              pump_2_start_time: hhmm(r.pump2StartTime),
              pump_2_end_time: hhmm(r.pump2EndTime),
            }
          : null,
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
      const pending = await repo.pendingChanges(deviceId);
      return { config, pending, nextCheckinBy: (d.nextWakeupTime ?? now()).toISOString() };
    },
  };
}

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
      if (at > max)
        throw ApiError.field(
          field,
          `Item ${i} is dated ${e.at}, in the future by the server clock (${t.toISOString()}); check the device clock.`,
        );
      if (at < min) throw ApiError.field(field, `Item ${i} is dated ${e.at}, older than ${GATEWAY_LIMITS.maxAgeDays} days.`);
    }
  }
}

/** The serial and secret of `Authorization: Basic base64(serial:secret)`; 401 when there are none. */
/** The serial a device's Authorization header names (after a check-in it authenticated). */
export const serialOfCredentials = (header: string | undefined) => credentials(header).serial;

function credentials(header: string | undefined): { serial: string; secret: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]{4,400})$/.exec(header ?? '');
  const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
  const i = decoded.indexOf(':');
  const serial = i > 0 ? decoded.slice(0, i) : '';
  const secret = i > 0 ? decoded.slice(i + 1) : '';
  // No serial holds a NUL (nor can PostgreSQL take one in text): refused like any unknown serial.
  if (!serial || !secret || serial.includes('\0')) throw unauthorized();
  return { serial, secret };
}

const unauthorized = () =>
  new ApiError(401, { detail: 'Invalid device credentials.' }, { 'WWW-Authenticate': 'Basic realm="device"' });
