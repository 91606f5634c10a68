import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { deviceWarnings, warningFlags, GATEWAY_LIMITS, type CheckinAnswer, type CheckinInput, type DeviceConfig } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { devices, pendingChanges, pumpSettings, rentals, deviceGroups } from '../db/schema.ts';
import { ApiError } from '../lib/errors.ts';
import { keyHash, randomKey } from '../lib/crypto.ts';

type DeviceRow = typeof devices.$inferSelect;
/** Rows of db.execute, on node-postgres ({ rows }) and PGlite ({ rows }) alike. */
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
/** What a check-in reads of the locked device row (snake_case: raw SQL). */
type LockedDevice = {
  id: number; batch_id: number | null; batch2_id: number | null; poweroff_time: string | null; wakeup1_time: string | null;
  is_pause: boolean; is_activated: boolean; is_enabled_maintenance: boolean; is_enabled_vandalism: boolean; group_id: number | null;
  left_pump_type: string; right_pump_type: string; battery_percent: number | null; level_sensor1: boolean; level_sensor2: boolean;
  volume_remain: number; volume_remain2: number; pump_sensor_fault: boolean;
};
/** The one row of the check-in's data-modifying statement. */
type Step2 = {
  pe: { pump: number; ml: number; batch: number | null }[]; lv: number; bt: number; du: number; sm: number;
  settled: { id: number; status: string }[];
  changes: { id: number; setting: string; desired: unknown; status: string; superseded: boolean }[];
  s1: boolean | null; v1: number | null; s2: boolean | null; v2: number | null; bp: number | null; bv: number | null;
  l_exp: string | null; l_rec: boolean | null; r_exp: string | null; r_rec: boolean | null;
  steps_per_second: number | null; steps_per_ml: number | null; ml_per_shot: number | null; steps_per_second2: number | null;
  steps_per_ml2: number | null; ml_per_shot2: number | null; vandalism_max_shots: number | null; vandalism_interval: number | null;
  has_rental: boolean; start_date: string | null; end_date: string | null; start_time: string | null; end_time: string | null;
  pump_2_start_time: string | null; pump_2_end_time: string | null; timezone_id: string | null;
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

    /**
     * One check-in in a handful of raw statements (the hot path of the gateway; issue budgets: >= 10,000
     * data points/s, p99 < 100 ms at 200 check-ins/s). Statements, in order:
     *   1. lock the device row FOR UPDATE and read what the check-in needs of it (uploads of one device serialise);
     *   2. one data-modifying statement: the five idempotent inserts, the settling of pending changes, and
     *      the reads (latest readings, batches, pending changes, configuration) — all seen at the snapshot
     *      taken after the lock, so the results of the inserts/updates are merged in explicitly (see below);
     *   3. ONE update of the device row (counters, latest state, warnings), so the devices_list_json trigger
     *      (migration 0003, ~7 subselects) fires once instead of three times;
     *   4. batch consumption, last (deadlock-free order, see there).
     * Raw SQL instead of drizzle's query builder: building the queries was ~40% of the CPU.
     */
    async checkin(device: DeviceRow, input: CheckinInput): Promise<CheckinAnswer> {
      const t = now();
      checkTimes(input, t);
      const iso = (at: string) => new Date(at).toISOString(); // what binding `new Date(at)` stored before
      const tIso = t.toISOString();
      const answer = await db.transaction(async (tx) => {
        // 1. Lock the device row: two uploads of one device are applied one after the other.
        const cur = rowsOf<LockedDevice>(
          await tx.execute(sql`
            select id, batch_id, batch2_id, poweroff_time, wakeup1_time, is_pause, is_activated, is_enabled_maintenance,
                   is_enabled_vandalism, group_id, left_pump_type, right_pump_type, battery_percent, level_sensor1,
                   level_sensor2, volume_remain, volume_remain2, pump_sensor_fault
            from devices where id = ${device.id} for update`),
        )[0]!;
        const id = cur.id;
        const sleep = minutes(cur.poweroff_time, 30);
        const next = new Date(t.getTime() + sleep * 60_000);
        const nextIso = next.toISOString();

        // 2. The uploads go in as JSON arrays (one parameter each), numbered so the order of the upload
        //    decides between equal keys exactly as a multi-row INSERT does (the first one is stored).
        const j = (v: unknown) => JSON.stringify(v);
        const pe = j(input.dispenses.map((e) => ({ pump: e.pump, seq: e.seq, at: iso(e.at), ml: e.ml, batch: e.pump === 1 ? cur.batch_id : cur.batch2_id })));
        const lv = j(input.levels.map((l) => ({ pump: l.pump, at: iso(l.at), sensor: l.sensor, v: l.volumeRemain })));
        const bt = j(input.batteries.map((b) => ({ at: iso(b.at), volt: b.volt, pct: b.percent })));
        const du = j(input.dataUsage.map((u) => ({ at: iso(u.at), kb: u.kb, sq: u.signalQuality ?? null })));
        const sm = j(input.sms.map((m) => ({ dir: m.direction, msg: m.message, at: iso(m.at), seq: m.seq })));
        const applied = j(input.applied);
        const failed = j(input.failed.map((f) => f.id));
        // A pending change is settled: applied wins over failed (it was settled first before), and only what
        // is still pending after both may expire. Only this device's changes.
        const settles = sql`(id in (select jsonb_array_elements_text(${applied}::jsonb)::int)
                             or id in (select jsonb_array_elements_text(${failed}::jsonb)::int)
                             or coalesce(expires_at < ${tIso}::timestamptz, false))`;
        const res = rowsOf<Step2>(
          await tx.execute(sql`
            with
            pe_in as (select e.ord, (e.j->>'pump')::smallint as pump, (e.j->>'seq')::bigint as seq, (e.j->>'at')::timestamptz as at,
                             (e.j->>'ml')::real as ml, (e.j->>'batch')::int as batch_id
                      from jsonb_array_elements(${pe}::jsonb) with ordinality as e(j, ord)),
            lv_in as (select e.ord, (e.j->>'pump')::smallint as pump, (e.j->>'at')::timestamptz as at,
                             (e.j->>'sensor')::boolean as sensor, (e.j->>'v')::real as v
                      from jsonb_array_elements(${lv}::jsonb) with ordinality as e(j, ord)),
            bt_in as (select e.ord, (e.j->>'at')::timestamptz as at, (e.j->>'volt')::real as volt, (e.j->>'pct')::real as pct
                      from jsonb_array_elements(${bt}::jsonb) with ordinality as e(j, ord)),
            pe_ins as (insert into pump_events (device_id, pump_number, seq, occurred_at, volume_ml, batch_id)
                       select ${id}, pump, seq, at, ml, batch_id from pe_in order by ord
                       on conflict (device_id, pump_number, seq) do nothing
                       returning pump_number, volume_ml, batch_id),
            lv_ins as (insert into level_readings (device_id, pump_number, recorded_at, level_sensor, volume_remain)
                       select ${id}, pump, at, sensor, v from lv_in order by ord
                       on conflict do nothing returning 1),
            bt_ins as (insert into battery_readings (device_id, recorded_at, battery_volt, battery_percent)
                       select ${id}, at, volt, pct from bt_in order by ord
                       on conflict do nothing returning 1),
            du_ins as (insert into data_usage (device_id, recorded_at, kb, signal_quality)
                       select ${id}, (e.j->>'at')::timestamptz, (e.j->>'kb')::real, (e.j->>'sq')::smallint
                       from jsonb_array_elements(${du}::jsonb) with ordinality as e(j, ord) order by e.ord
                       on conflict do nothing returning 1),
            sm_ins as (insert into sms_log (device_id, direction, message, created_when, seq)
                       select ${id}, e.j->>'dir', e.j->>'msg', (e.j->>'at')::timestamptz, (e.j->>'seq')::bigint
                       from jsonb_array_elements(${sm}::jsonb) with ordinality as e(j, ord) order by e.ord
                       on conflict (device_id, seq) do nothing returning 1),
            -- Settled changes get their status (this fires pending_changes_list_json like before); what stays
            -- pending is expected at the next wake-up (a separate update: it does not set status, so it does
            -- not fire that trigger, as before).
            settled as (update pending_changes
                        set status = case when id in (select jsonb_array_elements_text(${applied}::jsonb)::int) then 'applied'
                                          when id in (select jsonb_array_elements_text(${failed}::jsonb)::int) then 'failed'
                                          else 'expired' end,
                            resolved_at = ${tIso}::timestamptz
                        where device_id = ${id} and status = 'pending' and ${settles}
                        returning id, status),
            kept as (update pending_changes set expected_at = ${nextIso}::timestamptz
                     where device_id = ${id} and status = 'pending' and not ${settles} returning 1)
            select
              (select coalesce(json_agg(json_build_object('pump', pump_number, 'ml', volume_ml, 'batch', batch_id)), '[]') from pe_ins) as pe,
              (select count(*)::int from lv_ins) as lv, (select count(*)::int from bt_ins) as bt,
              (select count(*)::int from du_ins) as du, (select count(*)::int from sm_ins) as sm,
              (select coalesce(json_agg(json_build_object('id', id, 'status', status)), '[]') from settled) as settled,
              -- Pending changes as they were before this statement (its own updates are not visible here):
              -- the still-pending ones are answered, and FAILED_REQUEST needs failed/expired ones that no
              -- newer request of the same setting replaced.
              (select coalesce(json_agg(json_build_object('id', p.id, 'setting', p.setting, 'desired', p.desired, 'status', p.status,
                                          'superseded', exists (select 1 from pending_changes q where q.device_id = p.device_id
                                                                and q.setting = p.setting and q.requested_at > p.requested_at))
                                        order by p.id), '[]')
                 from pending_changes p where p.device_id = ${id} and p.status in ('pending', 'failed', 'expired')) as changes,
              l1.sensor as s1, l1.v as v1, l2.sensor as s2, l2.v as v2, b.pct as bp, b.volt as bv,
              lb.expire_date::text as l_exp, lb.is_recalled as l_rec, rb.expire_date::text as r_exp, rb.is_recalled as r_rec,
              s.steps_per_second, s.steps_per_ml, s.ml_per_shot, s.steps_per_second2, s.steps_per_ml2, s.ml_per_shot2,
              s.vandalism_max_shots, s.vandalism_interval,
              r.device_id is not null as has_rental, r.start_date::text as start_date, r.end_date::text as end_date,
              r.start_time::text as start_time, r.end_time::text as end_time,
              r.pump_2_start_time::text as pump_2_start_time, r.pump_2_end_time::text as pump_2_end_time,
              g.timezone_id
            from (select 1) as one
            -- The latest reading of each kind, whatever the upload order: the newest stored one (seen before the
            -- inserts) against the upload's; on equal time the stored one stays (the upload's was a duplicate),
            -- then the first of the upload (the one inserted). Values as the real columns store them.
            left join lateral (
              select sensor, v from (
                (select level_sensor as sensor, volume_remain as v, recorded_at as at, 0 as src, 0::bigint as ord
                 from level_readings where device_id = ${id} and pump_number = 1 order by recorded_at desc limit 1)
                union all select sensor, v, at, 1, ord from lv_in where pump = 1) c
              order by at desc, src, ord limit 1) l1 on true
            left join lateral (
              select sensor, v from (
                (select level_sensor as sensor, volume_remain as v, recorded_at as at, 0 as src, 0::bigint as ord
                 from level_readings where device_id = ${id} and pump_number = 2 order by recorded_at desc limit 1)
                union all select sensor, v, at, 1, ord from lv_in where pump = 2) c
              order by at desc, src, ord limit 1) l2 on true
            left join lateral (
              select pct, volt from (
                (select battery_percent as pct, battery_volt as volt, recorded_at as at, 0 as src, 0::bigint as ord
                 from battery_readings where device_id = ${id} order by recorded_at desc limit 1)
                union all select pct, volt, at, 1, ord from bt_in) c
              order by at desc, src, ord limit 1) b on true
            left join batches lb on lb.id = ${cur.batch_id}::int
            left join batches rb on rb.id = ${cur.batch2_id}::int
            left join pump_settings s on s.device_id = ${id}
            left join rentals r on r.device_id = ${id}
            left join device_groups g on g.id = ${cur.group_id}::int`),
        )[0]!;

        const out = { dispenses: 0, duplicates: 0, levels: res.lv, batteries: res.bt, dataUsage: res.du, sms: res.sm };
        const inserted = res.pe;
        out.dispenses = inserted.length;
        out.duplicates = input.dispenses.length - inserted.length;
        const sum = (p: number, f: (r: (typeof inserted)[number]) => number) => inserted.filter((r) => r.pump === p).reduce((n, r) => n + f(r), 0);
        const consumed = new Map<number, number>();
        for (const r of inserted) if (r.batch) consumed.set(r.batch, (consumed.get(r.batch) ?? 0) + r.ml);

        // Pending changes after this check-in: the statement's own updates merged into what it saw.
        const statusNow = new Map(res.settled.map((c) => [c.id, c.status]));
        const changes = res.changes.map((c) => ({ ...c, status: statusNow.get(c.id) ?? c.status }));
        const pending = changes.filter((c) => c.status === 'pending').map((c) => ({ id: c.id, setting: c.setting, desired: c.desired }));

        // The device row as it will be, for the shared warning rules (what recomputeWarnings read before).
        const after = {
          batteryPercent: res.bp != null ? res.bp : cur.battery_percent,
          levelSensor1: res.s1 != null ? res.s1 : cur.level_sensor1,
          volumeRemain: res.s1 != null ? res.v1! : cur.volume_remain,
          levelSensor2: res.s2 != null ? res.s2 : cur.level_sensor2,
          volumeRemain2: res.s2 != null ? res.v2! : cur.volume_remain2,
          pumpSensorFault: input.faults?.pumpSensor !== undefined ? input.faults.pumpSensor : cur.pump_sensor_fault,
        };
        const today = tIso.slice(0, 10);
        const batch = (exp: string | null, rec: boolean | null) => (exp == null ? null : { expired: String(exp).slice(0, 10) < today, recalled: !!rec });
        const list = deviceWarnings({
          ...after,
          leftPumpType: cur.left_pump_type,
          rightPumpType: cur.right_pump_type,
          neverReported: false, // last_seen_at is set now
          leftBatch: batch(res.l_exp, res.l_rec),
          rightBatch: batch(res.r_exp, res.r_rec),
          // A change the device could not apply, or never picked up in time, until a newer request replaces it.
          failedRequest: changes.some((c) => (c.status === 'failed' || c.status === 'expired') && !c.superseded),
        });
        const flags = warningFlags(list);

        // 3. The one update of the device row (the list-JSON trigger fires once, after the pending changes
        //    were settled, so the list answer shows the settled flags).
        const set = [
          sql`last_seen_at = ${tIso}::timestamptz, is_online = true, next_wakeup_time = ${nextIso}::timestamptz`,
          sql`warning_lists = ${j(list)}::jsonb, is_warning = ${flags.isWarning}, is_batch_warning = ${flags.isBatchWarning}, battery_warning = ${flags.batteryWarning}`,
        ];
        if (inserted.length) {
          set.push(sql`dispense_count1 = dispense_count1 + ${sum(1, () => 1)}::bigint, dispense_count2 = dispense_count2 + ${sum(2, () => 1)}::bigint,
                       dispensed_ml1 = dispensed_ml1 + ${sum(1, (r) => r.ml)}::float8, dispensed_ml2 = dispensed_ml2 + ${sum(2, (r) => r.ml)}::float8`);
        }
        if (input.softwareVersion) set.push(sql`core_ver = ${input.softwareVersion}`);
        if (input.signalQuality !== undefined) set.push(sql`signal_quality = ${input.signalQuality}::smallint`);
        if (res.s1 != null) set.push(sql`level_sensor1 = ${res.s1}, volume_remain = ${res.v1}::float8`);
        if (res.s2 != null) set.push(sql`level_sensor2 = ${res.s2}, volume_remain2 = ${res.v2}::float8`);
        if (res.bp != null) set.push(sql`battery_percent = ${res.bp}::real, battery_volt = ${res.bv}::real`);
        if (input.faults?.pumpSensor !== undefined) set.push(sql`pump_sensor_fault = ${input.faults.pumpSensor}`);
        if (input.location) {
          set.push(sql`reported_lat = ${input.location.lat}::float8, reported_lng = ${input.location.lng}::float8, reported_location_at = ${iso(input.location.at)}::timestamptz`);
        }
        await tx.execute(sql`update devices set ${sql.join(set, sql`, `)} where id = ${id}`);

        // 4. What was dispensed leaves its batch. Many devices share a batch: one statement, last before commit,
        // so the shared rows are locked briefly and always in id order (no deadlock). The UPDATE alone does not
        // lock in the order of its VALUES (the join may scan batches in any order; the bench hit deadlocks),
        // so an uncorrelated sub-select, evaluated once before the update reads a row (a one-time filter),
        // first locks the rows with ORDER BY id (locks are taken in the sorted order).
        if (consumed.size) {
          const rows = [...consumed.entries()].sort((a, b) => a[0] - b[0]);
          const ids = sql.join(rows.map(([bid]) => sql`${bid}::int`), sql`, `);
          await tx.execute(sql`
            update batches set remain_litres = greatest(0, batches.remain_litres - v.ml / 1000)
            from (values ${sql.join(rows.map(([bid, ml]) => sql`(${bid}::int, ${ml}::float8)`), sql`, `)}) as v(id, ml)
            where batches.id = v.id
              and (select count(*) from (select 1 from batches b where b.id in (${ids}) order by b.id for no key update) locked) >= 0`);
        }

        // The answer, from what was read under the lock (configFor without its two selects).
        const hhmm = (x: string | null) => (x ? x.slice(0, 5) : null);
        const config: DeviceConfig = {
          is_pause: cur.is_pause,
          is_activated: cur.is_activated,
          is_enabled_maintenance: cur.is_enabled_maintenance,
          is_enabled_vandalism: cur.is_enabled_vandalism,
          rental: res.has_rental
            ? { start_date: res.start_date!, end_date: res.end_date!, start_time: hhmm(res.start_time), end_time: hhmm(res.end_time), pump_2_start_time: hhmm(res.pump_2_start_time), pump_2_end_time: hhmm(res.pump_2_end_time) }
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
          wakeup_minutes: minutes(cur.wakeup1_time, 5),
          time_zone: res.timezone_id,
        };
        return { accepted: out, config, pending, nextCheckinBy: nextIso };
      });
      return { serverTime: tIso, accepted: answer.accepted, config: answer.config, pending: answer.pending, nextCheckinBy: answer.nextCheckinBy };
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
