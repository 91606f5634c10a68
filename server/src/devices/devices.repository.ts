import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { batches, brands, deviceGroups, devices, rentals } from '../db/schema.ts';

const leftBatch = alias(batches, 'left_batch');
const rightBatch = alias(batches, 'right_batch');

/** A device answer carries every section 3 field, so the client needs no second call. */
export function devicesRepository(db: Db) {
  const select = () =>
    db
      .select({
        d: devices,
        brandName: brands.name,
        brandImage: brands.imageUrl,
        locationId: deviceGroups.locationId,
        timezoneId: deviceGroups.timezoneId,
        batchNumber: leftBatch.batchNo,
        batch2Number: rightBatch.batchNo,
        rental: rentals,
        pending: sql<{ kind: string; setting: string; requested_at: string; expected_at: string | null }[]>`coalesce((
          select json_agg(json_build_object('kind', p.kind, 'setting', p.setting, 'requested_at', p.requested_at, 'expected_at', p.expected_at))
          from pending_changes p where p.device_id = ${devices.id} and p.status = 'pending'), '[]'::json)`,
        partners: sql<{ id: number; company: string }[]>`coalesce((
          select json_agg(json_build_object('id', u.id, 'company', u.company) order by u.company)
          from user_exclusive_devices x join users u on u.id = x.user_id where x.device_id = ${devices.id}), '[]'::json)`,
      })
      .from(devices)
      .leftJoin(brands, eq(brands.id, devices.brandId))
      .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
      .leftJoin(leftBatch, eq(leftBatch.id, devices.batchId))
      .leftJoin(rightBatch, eq(rightBatch.id, devices.batch2Id))
      .leftJoin(rentals, eq(rentals.deviceId, devices.id));

  return {
    /** Placed devices (on a site) within the caller's scope. */
    async list(scope: SQL | undefined) {
      const rows = await select()
        .where(and(sql`${devices.groupId} is not null`, scope))
        .orderBy(asc(devices.groupId), asc(devices.number), asc(devices.serial));
      return rows.map(toDeviceAnswer);
    },
    /** A placed device; an unplaced serial is only in the available list. */
    async bySerial(serial: string, scope: SQL | undefined) {
      const [row] = await select()
        .where(and(eq(devices.serial, serial), sql`${devices.groupId} is not null`, scope))
        .limit(1);
      return row ? toDeviceAnswer(row) : undefined;
    },
  };
}


function toDeviceAnswer(row: {
  d: typeof devices.$inferSelect;
  brandName: string | null;
  brandImage: string | null;
  locationId: number | null;
  timezoneId: string | null;
  batchNumber: string | null;
  batch2Number: string | null;
  rental: typeof rentals.$inferSelect | null;
  pending: { kind: string; setting: string; requested_at: string; expected_at: string | null }[];
  partners: { id: number; company: string }[];
}) {
  const d = row.d;
  const pending = row.pending ?? [];
  return {
    id: d.id,
    serial: d.serial,
    label: d.label,
    number: d.number,
    address: d.address,
    location: d.lat != null && d.lng != null ? { lat: d.lat, lng: d.lng } : null,
    location_id: row.locationId,
    location_group: d.groupId,
    timezone_id: row.timezoneId,
    brand: d.brandId,
    brand_name: row.brandName,
    brand_image_url: row.brandImage,
    location_event_type: d.locationEventType,
    left_pump_type: d.leftPumpType,
    right_pump_type: d.rightPumpType,
    batch: d.batchId,
    batchNumber: row.batchNumber,
    batch2Id: d.batch2Id,
    batch2Number: row.batch2Number,
    /** Dual-pump device: a right pump that holds a fluid. */
    batch2: d.rightPumpType !== 'Unspecified',
    level_sensor1: d.levelSensor1,
    level_sensor2: d.levelSensor2,
    volume_remain: d.volumeRemain,
    volume_remain2: d.volumeRemain2,
    is_pause: d.isPause,
    is_activated: d.isActivated,
    active: d.active,
    is_online: d.isOnline,
    is_registration: d.isRegistration,
    is_warning: d.isWarning,
    is_batch_warning: d.isBatchWarning,
    is_maintenance: d.isMaintenance,
    warning_lists: d.warningLists,
    is_enabled_vandalism: d.isEnabledVandalism,
    is_enabled_maintenance: d.isEnabledMaintenance,
    pending_flags: {
      activation_changed: pending.some((p) => p.kind === 'activation'),
      rental_changed: pending.some((p) => p.kind === 'rental'),
      others: pending.some((p) => p.kind === 'other'),
    },
    pending_changes: pending,
    poweroff_time: d.poweroffTime,
    wakeup1_time: d.wakeup1Time,
    next_wakeup_time: d.nextWakeupTime?.toISOString() ?? null,
    last_seen_at: d.lastSeenAt?.toISOString() ?? null,
    core_ver: d.coreVer,
    signal_quality: d.signalQuality,
    battery_warning: d.batteryWarning,
    battery_volt: d.batteryVolt,
    battery_percent: d.batteryPercent,
    rental: row.rental
      ? {
          start_date: row.rental.startDate,
          end_date: row.rental.endDate,
          start_time: row.rental.startTime,
          end_time: row.rental.endTime,
          pump_2_start_time: row.rental.pump2StartTime,
          pump_2_end_time: row.rental.pump2EndTime,
        }
      : null,
    market_partners: row.partners ?? [],
    simcardPhoneNumber: d.simcardPhoneNumber,
    imei: d.imei,
    simSerialNumber: d.simSerialNumber,
  };
}
export type DeviceAnswer = ReturnType<typeof toDeviceAnswer>;
