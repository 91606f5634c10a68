import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * A device answer carries every section 3 field, so the client needs no second call. The JSON is built
 * by PostgreSQL in one pass (pending changes and market partners aggregated once, joined by hash) and
 * handed to the response as text: with 10,000 devices that keeps the list well inside its time budget,
 * where building 10,000 objects in Node and serialising them again did not.
 */
function deviceJsonQuery(where: SQL, order: SQL, detail: boolean) {
  return sql`
    with scoped as not materialized (
      select devices.* from devices where devices.group_id is not null and ${where}
    ),
    pend as (
      select p.device_id,
             ${detail ? sql`json_agg(json_build_object('id', p.id, 'kind', p.kind, 'setting', p.setting, 'requested_at', p.requested_at, 'requested_by', p.requested_by,
                                        'expected_at', p.expected_at, 'expires_at', p.expires_at) order by p.requested_at)` : sql`null::json`} as items,
             bool_or(p.kind = 'activation') as activation, bool_or(p.kind = 'rental') as rental, bool_or(p.kind = 'other') as others
      from pending_changes p
      where p.status = 'pending' and p.device_id in (select id from scoped)
      group by p.device_id
    ),
    part as (
      select x.device_id, json_agg(json_build_object('id', u.id, 'company', u.company) order by u.company) as items
      from user_exclusive_devices x join users u on u.id = x.user_id
      where x.device_id in (select id from scoped)
      group by x.device_id
    )
    select row_to_json(a)::text as json
    from (
      select d.id, d.serial, d.label, d.number, d.address,
             case when d.lat is null or d.lng is null then null else json_build_object('lat', d.lat, 'lng', d.lng) end as location,
             g.location_id, d.group_id as location_group,
             d.brand_id as brand, b.name as brand_name,
             d.location_event_type, d.left_pump_type, d.right_pump_type,
             d.batch_id as batch, lb.batch_no as "batchNumber", rb.batch_no as "batch2Number",
             d.right_pump_type <> 'Unspecified' as batch2,
             d.level_sensor1, d.level_sensor2, d.volume_remain, d.volume_remain2,
             d.is_pause, d.is_activated, d.active, d.is_online, d.is_registration, d.is_warning, d.is_batch_warning,
             d.is_maintenance, d.warning_lists, d.is_enabled_vandalism, d.is_enabled_maintenance,
             json_build_object('activation_changed', coalesce(pend.activation, false), 'rental_changed', coalesce(pend.rental, false),
                               'others', coalesce(pend.others, false)) as pending_flags,
             d.poweroff_time, d.wakeup1_time, d.next_wakeup_time, d.core_ver, d.signal_quality,
             d.battery_warning, d.battery_volt, d.battery_percent,
             case when r.device_id is null then null else json_build_object(
               'start_date', r.start_date, 'end_date', r.end_date, 'start_time', to_char(r.start_time, 'HH24:MI'),
               'end_time', to_char(r.end_time, 'HH24:MI'), 'pump_2_start_time', to_char(r.pump_2_start_time, 'HH24:MI'),
               'pump_2_end_time', to_char(r.pump_2_end_time, 'HH24:MI')) end as rental,
             coalesce(part.items, '[]'::json) as market_partners,
             d.simcard_phone_number as "simcardPhoneNumber", d.imei, d.sim_serial_number as "simSerialNumber"
             ${detail ? sql`, g.timezone_id, b.image_url as brand_image_url, d.batch2_id as "batch2Id", d.last_seen_at, coalesce(pend.items, '[]'::json) as pending_changes` : sql``}
      from scoped d
      left join device_groups g on g.id = d.group_id
      left join brands b on b.id = d.brand_id
      left join batches lb on lb.id = d.batch_id
      left join batches rb on rb.id = d.batch2_id
      left join rentals r on r.device_id = d.id
      left join pend on pend.device_id = d.id
      left join part on part.device_id = d.id
    ) a
    ${order}`;
}

export function devicesRepository(db: Db) {
  // One JSON text per device, joined here: cheaper for PostgreSQL to build and for the driver to decode
  // than a single aggregate of several megabytes.
  const run = async (q: SQL) => `[${((await db.execute(q)) as unknown as { rows: { json: string }[] }).rows.map((r) => r.json).join(',')}]`;
  return {
    /** Placed devices (on a site) within the caller's scope, as JSON text ready to send. */
    listJson(scope: SQL | undefined) {
      return run(deviceJsonQuery(scope ?? sql`true`, sql`order by location_group, number, serial`, false));
    },
    async list(scope: SQL | undefined): Promise<DeviceListItem[]> {
      return JSON.parse(await this.listJson(scope));
    },
    /** A placed device; an unplaced serial is only in the available list. */
    async bySerial(serial: string, scope: SQL | undefined): Promise<DeviceAnswer | undefined> {
      const [device] = JSON.parse(await run(deviceJsonQuery(sql`devices.serial = ${serial} and ${scope ?? sql`true`}`, sql``, true))) as DeviceAnswer[];
      return device;
    },
  };
}

/**
 * A device in the list: the fields of spec section 3, and market_partners for the card chips.
 * The single-device answer adds what the device panel shows: the site time zone, the brand image, the
 * last check-in and every pending change with who asked for it and when the device should take it.
 */
export type DeviceListItem = Omit<DeviceAnswer, 'timezone_id' | 'brand_image_url' | 'batch2Id' | 'last_seen_at' | 'pending_changes'>;
export type DeviceAnswer = {
  id: number;
  serial: string;
  label: string;
  number: number | null;
  address: string;
  location: { lat: number; lng: number } | null;
  location_id: number | null;
  location_group: number;
  timezone_id: string | null;
  brand: number | null;
  brand_name: string | null;
  brand_image_url: string | null;
  location_event_type: string;
  left_pump_type: string;
  right_pump_type: string;
  batch: number | null;
  batchNumber: string | null;
  batch2Id: number | null;
  batch2Number: string | null;
  batch2: boolean;
  level_sensor1: boolean;
  level_sensor2: boolean;
  volume_remain: number;
  volume_remain2: number;
  is_pause: boolean;
  is_activated: boolean;
  active: string | null;
  is_online: boolean;
  is_registration: boolean;
  is_warning: boolean;
  is_batch_warning: boolean;
  is_maintenance: boolean;
  warning_lists: string[];
  is_enabled_vandalism: boolean;
  is_enabled_maintenance: boolean;
  pending_flags: { activation_changed: boolean; rental_changed: boolean; others: boolean };
  pending_changes: { id: number; kind: string; setting: string; requested_at: string; requested_by: number | null; expected_at: string | null; expires_at: string | null }[];
  poweroff_time: string | null;
  wakeup1_time: string | null;
  next_wakeup_time: string | null;
  last_seen_at: string | null;
  core_ver: string | null;
  signal_quality: number | null;
  battery_warning: boolean;
  battery_volt: number | null;
  battery_percent: number | null;
  rental: { start_date: string; end_date: string; start_time: string | null; end_time: string | null; pump_2_start_time: string | null; pump_2_end_time: string | null } | null;
  market_partners: { id: number; company: string }[];
  simcardPhoneNumber: string | null;
  imei: string | null;
  simSerialNumber: string | null;
};
