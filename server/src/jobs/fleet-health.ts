import { sql } from 'drizzle-orm';
import { batchDayOf, MISSED_CHECKINS_FOR_OFFLINE, OFFLINE_GRACE_MINUTES, realClock } from '@fleet/shared';
import type { Db } from '../db/client.ts';
import { recomputeWarnings } from '../devices/index.ts';
import { foldBatchConsumption } from '../batches/index.ts';

// The rule's constants and its pure forms live in shared/ (rules/device.ts isOfflineAt; rules/alerts/conditions.ts
// offlineSince, which the alerts' reasons use); this is its SQL form over the whole fleet.
export { MISSED_CHECKINS_FOR_OFFLINE, OFFLINE_GRACE_MINUTES };

/**
 * Runs on a schedule (every minute, on the injected clock's time): marks devices offline that missed the check-ins their own
 * power-off/wake-up schedule promised, expires pending changes nobody picked up in time, and folds the
 * batch consumption check-ins appended into the batches' remaining volume (one lock per batch a minute,
 * instead of one per check-in: batches.repository.ts).
 *
 * Why no flapping: a device goes offline only after MISSED_CHECKINS_FOR_OFFLINE whole cycles of its own
 * schedule plus a grace, and comes back online at its next check-in. A device that is merely late (even
 * by most of a cycle) never crosses the line, unlike a single global timeout that a 30-minute sleeper
 * and a 5-minute sleeper would share.
 */
export async function checkFleetHealth(db: Db, now: Date = realClock.now()) {
  const minutes = (col: string, fallback: number) =>
    sql.raw(`(case when ${col} ~ '^[0-9]+$' then ${col}::int else ${fallback} end)`);
  const offline = (await db.execute(sql`
    update devices set is_online = false
    where is_online and group_id is not null and last_seen_at is not null
      and last_seen_at < ${now.toISOString()}::timestamptz
          - make_interval(mins => (${minutes('poweroff_time', 30)} + ${minutes('wakeup1_time', 5)}) * ${MISSED_CHECKINS_FOR_OFFLINE} + ${OFFLINE_GRACE_MINUTES})
    returning id, serial`)) as unknown as { rows: { id: number; serial: string }[] };
  const expired = (await db.execute(sql`
    update pending_changes set status = 'expired', resolved_at = ${now.toISOString()}::timestamptz
    where status = 'pending' and expires_at < ${now.toISOString()}::timestamptz
    returning device_id, (select serial from devices where devices.id = pending_changes.device_id) as serial`)) as unknown as {
    rows: { device_id: number; serial: string }[];
  };
  const touched = [...new Set(expired.rows.map((r) => r.device_id))];
  if (touched.length) await recomputeWarnings(db, touched, batchDayOf(now));
  const foldedConsumption = await foldBatchConsumption(db);
  return {
    wentOffline: offline.rows.map((r) => r.serial),
    expiredChanges: expired.rows.length,
    /** Devices whose pending change expired (their pending marks and warnings were recomputed). */
    expiredOn: [...new Set(expired.rows.map((r) => r.serial))],
    foldedConsumption,
  };
}
