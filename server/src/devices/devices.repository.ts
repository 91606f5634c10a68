import { sql, type SQL } from 'drizzle-orm';
import type { DeviceAnswer } from '@fleet/shared';
import type { Db } from '../db/client.ts';

/**
 * A device answer carries every section 3 field, so the client needs no second call. The list answer of
 * each device is kept in devices.list_json by database triggers (migration 0003) whenever the device or
 * anything it shows changes; the list is then a column read joined into one array, which keeps 10,000
 * devices inside the time budget. The single-device answer adds what the device panel shows.
 */
export function devicesRepository(db: Db) {
  return {
    /** Placed devices (on a site) within the caller's scope, as JSON text ready to send. */
    async listJson(scope: SQL | undefined): Promise<string> {
      const res = (await db.execute(sql`
        select coalesce(devices.list_json, device_list_json(devices)) as json
        from devices
        where devices.group_id is not null and ${scope ?? sql`true`}
        order by devices.group_id, devices.number, devices.serial`)) as unknown as { rows: { json: string }[] };
      return `[${res.rows.map((r) => r.json).join(',')}]`;
    },
    /** A placed device; an unplaced serial is only in the available list. */
    async bySerial(serial: string, scope: SQL | undefined): Promise<DeviceAnswer | undefined> {
      const res = (await db.execute(sql`
        select (coalesce(devices.list_json, device_list_json(devices))::jsonb || jsonb_build_object(
                  'timezone_id', g.timezone_id,
                  'brand_image_url', b.image_url,
                  'batch2Id', devices.batch2_id,
                  'last_seen_at', devices.last_seen_at,
                  'pending_changes', coalesce((
                    select jsonb_agg(jsonb_build_object('id', p.id, 'kind', p.kind, 'setting', p.setting, 'requested_at', p.requested_at,
                                                        'requested_by', p.requested_by, 'expected_at', p.expected_at, 'expires_at', p.expires_at)
                                     order by p.requested_at)
                    from pending_changes p where p.device_id = devices.id and p.status = 'pending'), '[]'::jsonb)))::text as json
        from devices
        left join device_groups g on g.id = devices.group_id
        left join brands b on b.id = devices.brand_id
        where devices.serial = ${serial} and devices.group_id is not null and ${scope ?? sql`true`}`)) as unknown as { rows: { json: string }[] };
      return res.rows[0] ? (JSON.parse(res.rows[0].json) as DeviceAnswer) : undefined;
    },
  };
}

export type { DeviceAnswer, DeviceListItem } from '@fleet/shared';
