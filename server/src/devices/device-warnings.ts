import { inArray, sql } from 'drizzle-orm';
import { batchWarningState, deviceWarnings, warningFlags } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { devices } from '../db/schema.ts';

type Tx = Pick<Db, 'execute' | 'update'>;

/**
 * FAILED_REQUEST of device `d` in SQL (hasFailedRequest of shared/src/rules/warnings.ts, which it must
 * agree with: device-warnings.test.ts runs both on the same cases): a failed or expired change that no
 * newer request of the same setting replaced. Kept in SQL so a batch edit recomputes thousands of devices
 * without reading their change history.
 */
export const failedRequestSql = sql`exists (select 1 from pending_changes p where p.device_id = d.id and p.status in ('failed', 'expired')
                   and not exists (select 1 from pending_changes q where q.device_id = d.id and q.setting = p.setting
                                   and q.requested_at > p.requested_at))`;

/**
 * Recomputes warning_lists, is_warning, is_batch_warning and battery_warning of the given devices from
 * their stored state with the shared rules, after anything they depend on changed (batch recalled,
 * resumed or edited, pump types, volumes, a check-in). PUMP_SENSOR comes from the device's last report,
 * FAILED_REQUEST from a pending change that failed or expired and was not asked again since.
 */
export async function recomputeWarnings(db: Tx, deviceIds: number[], today: string): Promise<void> {
  if (!deviceIds.length) return;
  const res = (await db.execute(sql`
    select d.id, d.warning_lists, d.is_warning, d.is_batch_warning, d.battery_warning, d.battery_percent, d.left_pump_type, d.right_pump_type, d.level_sensor1, d.level_sensor2,
           d.volume_remain, d.volume_remain2, d.last_seen_at, d.group_id, d.pump_sensor_fault,
           ${failedRequestSql} as failed_request,
           lb.expire_date as l_exp, lb.is_recalled as l_rec, rb.expire_date as r_exp, rb.is_recalled as r_rec
    from devices d
    left join batches lb on lb.id = d.batch_id
    left join batches rb on rb.id = d.batch2_id
    where d.id in (${sql.join(
      deviceIds.map((id) => sql`${id}`),
      sql`, `,
    )})`)) as unknown as {
    rows: {
      id: number;
      warning_lists: string[];
      is_warning: boolean;
      is_batch_warning: boolean;
      battery_warning: boolean;
      battery_percent: number | null;
      left_pump_type: string;
      right_pump_type: string;
      level_sensor1: boolean;
      level_sensor2: boolean;
      volume_remain: number;
      volume_remain2: number;
      last_seen_at: string | null;
      group_id: number | null;
      pump_sensor_fault: boolean;
      failed_request: boolean;
      l_exp: string | null;
      l_rec: boolean | null;
      r_exp: string | null;
      r_rec: boolean | null;
    }[];
  };
  for (const d of res.rows) {
    const list = deviceWarnings({
      batteryPercent: d.battery_percent,
      leftPumpType: d.left_pump_type,
      rightPumpType: d.right_pump_type,
      levelSensor1: d.level_sensor1,
      levelSensor2: d.level_sensor2,
      volumeRemain: d.volume_remain,
      volumeRemain2: d.volume_remain2,
      neverReported: d.group_id != null && d.last_seen_at == null,
      leftBatch: batchWarningState(d.l_exp, d.l_rec, today),
      rightBatch: batchWarningState(d.r_exp, d.r_rec, today),
      pumpSensorFault: d.pump_sensor_fault,
      // A change the device could not apply, or never picked up in time, until a newer request replaces it.
      failedRequest: d.failed_request,
    });
    const flags = warningFlags(list);
    // Only rows whose warnings change are written: a batch edit that leaves the expiry (a rename) touches
    // no device row, so it neither rewrites their list answers nor locks them against check-ins.
    if (
      JSON.stringify(d.warning_lists) === JSON.stringify(list) &&
      d.is_warning === flags.isWarning &&
      d.is_batch_warning === flags.isBatchWarning &&
      d.battery_warning === flags.batteryWarning
    )
      continue;
    await db
      .update(devices)
      .set({ warningLists: list, ...flags })
      .where(inArray(devices.id, [d.id]));
  }
}
