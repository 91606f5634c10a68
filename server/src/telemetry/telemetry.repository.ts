import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FilterDeviceType } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { deviceGroups, devices } from '../db/schema.ts';

/** A placed device with what the telemetry reads need (its site zone, the site and county it belongs to). */
export type TelemetryDevice = {
  id: number;
  serial: string;
  groupId: number;
  locationId: number | null;
  timezoneId: string | null;
  leftPumpType: string;
  rightPumpType: string;
  warningLists: string[];
  signalQuality: number | null;
  simcardPhoneNumber: string | null;
  imei: string | null;
  simSerialNumber: string | null;
};

/**
 * Timestamps go to PostgreSQL as one text parameter, a timestamptz[] literal of UTC ISO strings: both
 * drivers (pg and PGlite) pass it the same way, where a JS array would be spread into a parameter list.
 */
const instants = (ds: Date[]) => sql`${`{${ds.map((d) => `"${d.toISOString()}"`).join(',')}}`}::timestamptz[]`;
const instant = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ints = (ns: number[]) => sql`${`{${ns.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;

/** One device and the instants [from, to) a read covers for it. */
export type DeviceRange = { deviceId: number; from: Date; to: Date };

/** Times come back as epoch milliseconds (a float8), which both drivers decode to the same number. */
const epochMs = (col: SQL) => sql`(extract(epoch from ${col}) * 1000)::float8`;

export function telemetryRepository(db: Db) {
  const rows = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

  return {
    /** A placed device (on a site) within the caller's scope, or undefined. */
    async device(serial: string, scope: SQL | undefined): Promise<TelemetryDevice | undefined> {
      const [row] = await db
        .select({
          id: devices.id,
          serial: devices.serial,
          groupId: deviceGroups.id,
          locationId: deviceGroups.locationId,
          timezoneId: deviceGroups.timezoneId,
          leftPumpType: devices.leftPumpType,
          rightPumpType: devices.rightPumpType,
          warningLists: devices.warningLists,
          signalQuality: devices.signalQuality,
          simcardPhoneNumber: devices.simcardPhoneNumber,
          imei: devices.imei,
          simSerialNumber: devices.simSerialNumber,
        })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(and(eq(devices.serial, serial), scope))
        .limit(1);
      return row;
    },

    /**
     * The ids of the devices a pump log covers, as a subquery, always inside the caller's scope:
     * SINGLE the device; ADDRESS its site; DISTRICT every site of its county (its site alone when the
     * site has no county); ALL every placed device.
     */
    deviceSet(type: FilterDeviceType, device: TelemetryDevice, scope: SQL | undefined): SQL {
      const inScope = scope ?? sql`true`;
      switch (type) {
        case 'SINGLE':
          return sql`select ${device.id}::int`;
        case 'ADDRESS':
          return sql`select devices.id from devices where devices.group_id = ${device.groupId} and ${inScope}`;
        case 'DISTRICT':
          return device.locationId == null
            ? sql`select devices.id from devices where devices.group_id = ${device.groupId} and ${inScope}`
            : sql`select devices.id from devices join device_groups g on g.id = devices.group_id where g.location_id = ${device.locationId} and ${inScope}`;
        case 'ALL':
          return sql`select devices.id from devices where devices.group_id is not null and ${inScope}`;
      }
    },

    /** Dispense counts per bucket (width_bucket index, 1-based) and pump, over [first, last) of the thresholds. */
    pumpCounts(deviceSet: SQL, thresholds: Date[]) {
      return rows<{ b: number; pump: number; n: number }>(sql`
        select width_bucket(e.occurred_at, ${instants(thresholds)})::int as b, e.pump_number::int as pump, count(*)::int as n
        from pump_events e
        where e.device_id in (${deviceSet})
          and e.occurred_at >= ${instant(thresholds[0]!)} and e.occurred_at < ${instant(thresholds[thresholds.length - 1]!)}
        group by 1, 2`);
    },

    /** The remaining volume of one pump at each instant: the last level reading at or before it, or null. */
    async remainAt(deviceId: number, pump: number, at: Date[]): Promise<(number | null)[]> {
      const found = await rows<{ i: number; v: number | null }>(sql`
        select b.i::int as i,
               (select r.volume_remain::float8 from level_readings r
                 where r.device_id = ${deviceId} and r.pump_number = ${pump} and r.recorded_at <= b.t
                 order by r.recorded_at desc limit 1) as v
        from unnest(${instants(at)}) with ordinality as b(t, i)
        order by b.i`);
      return found.map((r) => (r.v == null ? null : Number(r.v)));
    },

    /**
     * Dispense counts and ml per device and pump, each device over its own [from, to) (a report cuts the
     * same calendar days in each site's zone). One statement for any number of devices.
     */
    pumpTotals(ranges: DeviceRange[]) {
      if (!ranges.length) return Promise.resolve([]);
      return rows<{ device_id: number; pump: number; n: number; ml: number }>(sql`
        select r.id::int as device_id, e.pump_number::int as pump, count(*)::int as n, coalesce(sum(e.volume_ml), 0)::float8 as ml
        from unnest(${ints(ranges.map((r) => r.deviceId))}, ${instants(ranges.map((r) => r.from))}, ${instants(ranges.map((r) => r.to))}) as r(id, f, t)
        join pump_events e on e.device_id = r.id and e.occurred_at >= r.f and e.occurred_at < r.t
        group by 1, 2`);
    },

    /** Per device, its last battery percentage recorded before `to` (null without one). */
    batteryBefore(ranges: Pick<DeviceRange, 'deviceId' | 'to'>[]) {
      if (!ranges.length) return Promise.resolve([]);
      return rows<{ device_id: number; percent: number | null }>(sql`
        select r.id::int as device_id,
               (select b.battery_percent::float8 from battery_readings b
                 where b.device_id = r.id and b.recorded_at < r.t
                 order by b.recorded_at desc limit 1) as percent
        from unnest(${ints(ranges.map((r) => r.deviceId))}, ${instants(ranges.map((r) => r.to))}) as r(id, t)`);
    },

    async batteryCount(deviceId: number, from: Date, to: Date): Promise<number> {
      const [row] = await rows<{ n: number }>(sql`
        select count(*)::int as n from battery_readings
        where device_id = ${deviceId} and recorded_at >= ${instant(from)} and recorded_at < ${instant(to)}`);
      return Number(row?.n ?? 0);
    },

    batteryReadings(deviceId: number, from: Date, to: Date) {
      return rows<{ at: number; volt: number; percent: number }>(sql`
        select ${epochMs(sql`recorded_at`)} as at, battery_volt::float8 as volt, battery_percent::float8 as percent
        from battery_readings
        where device_id = ${deviceId} and recorded_at >= ${instant(from)} and recorded_at < ${instant(to)}
        order by recorded_at`);
    },

    /** Average battery reading per bucket (width_bucket index, 1-based), buckets without readings left out. */
    batteryAverages(deviceId: number, thresholds: Date[]) {
      return rows<{ b: number; volt: number; percent: number }>(sql`
        select width_bucket(recorded_at, ${instants(thresholds)})::int as b,
               avg(battery_volt)::float8 as volt, avg(battery_percent)::float8 as percent
        from battery_readings
        where device_id = ${deviceId}
          and recorded_at >= ${instant(thresholds[0]!)} and recorded_at < ${instant(thresholds[thresholds.length - 1]!)}
        group by 1
        order by 1`);
    },

    /** kB used and number of readings per bucket (width_bucket index, 1-based), buckets without readings left out. */
    usage(deviceId: number, thresholds: Date[]) {
      return rows<{ b: number; kb: number; n: number }>(sql`
        select width_bucket(recorded_at, ${instants(thresholds)})::int as b, sum(kb)::float8 as kb, count(*)::int as n
        from data_usage
        where device_id = ${deviceId}
          and recorded_at >= ${instant(thresholds[0]!)} and recorded_at < ${instant(thresholds[thresholds.length - 1]!)}
        group by 1`);
    },

    smsLog(deviceId: number, limit: number) {
      return rows<{ direction: string; message: string; at: number }>(sql`
        select direction, message, ${epochMs(sql`created_when`)} as at
        from sms_log
        where device_id = ${deviceId}
        order by created_when desc, id desc
        limit ${limit}`);
    },

    async smsSummary(deviceId: number, since: Date) {
      const [row] = await rows<{ last_at: number | null; sms_in: number; sms_out: number; kb: number | null }>(sql`
        select (select ${epochMs(sql`max(created_when)`)} from sms_log where device_id = ${deviceId}) as last_at,
               (select count(*)::int from sms_log where device_id = ${deviceId} and created_when >= ${instant(since)} and upper(direction) = 'IN') as sms_in,
               (select count(*)::int from sms_log where device_id = ${deviceId} and created_when >= ${instant(since)} and upper(direction) = 'OUT') as sms_out,
               (select sum(kb)::float8 from data_usage where device_id = ${deviceId} and recorded_at >= ${instant(since)}) as kb`);
      return {
        lastAt: row?.last_at == null ? null : Number(row.last_at),
        smsIn: Number(row?.sms_in ?? 0),
        smsOut: Number(row?.sms_out ?? 0),
        kb: Number(row?.kb ?? 0),
      };
    },
  };
}
export type TelemetryRepository = ReturnType<typeof telemetryRepository>;
