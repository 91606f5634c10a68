import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  clampTimerMinutes,
  mlPerShotForMode,
  PUMP_TYPE_CODE,
  pumpModeForMl,
  rentalDayCount,
  supportsRightPump,
  type DeviceFormInput,
  type PumpType,
  type RentalInput,
} from '@fleet/shared';
import type { z } from 'zod';
import type { pumpSettingSchema } from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { batches, brands, deviceGroups, devices, pendingChanges, pumpSettings, rentals, userExclusiveDevices } from '../db/schema.ts';
import { ApiError } from '../lib/errors.ts';
import { resolveSite } from '../sites/site-resolver.ts';
import { recomputeWarnings } from './device-warnings.ts';
import { devicesRepository } from './devices.repository.ts';
import { cancelChange, requestChange, type RestorePoint } from './pending-changes.ts';

type DeviceRow = typeof devices.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Device management (spec sections 2, 5 and 6). Who may do what:
 * - add, edit and delete devices, and list unplaced serials: distributors only (the add-device button
 *   and Edit Machine are theirs);
 * - device controls (activation, maintenance, anti-vandalism, pause, pump and registration setup, resetting
 *   the tsp counter, rental plans): distributors, and market partners on their own devices; the client
 *   role cannot open these panels, so the server refuses it with 403;
 * - reads: every role, within its scope. A device outside the caller's scope answers 404.
 */
export function devicesService(db: Db, now: () => Date = () => new Date()) {
  const repo = devicesRepository(db);

  const requireDistributor = (v: ScopeViewer) => {
    if (v.access !== 'distributor') throw ApiError.forbidden();
  };
  const requireOperator = (v: ScopeViewer) => {
    if (v.access === 'client') throw ApiError.forbidden('The client role cannot change device settings.');
  };

  async function placedInScope(tx: Pick<Db, 'select'>, viewer: ScopeViewer, serial: string): Promise<DeviceRow> {
    const [row] = await tx
      .select()
      .from(devices)
      .where(and(eq(devices.serial, serial), sql`${devices.groupId} is not null`, deviceScope(viewer)))
      .limit(1);
    if (!row) throw ApiError.notFound('No device with this serial.');
    return row;
  }

  async function answer(serial: string) {
    return (await repo.bySerial(serial, undefined))!;
  }

  async function resolveBatch(tx: Tx, ref: number | string, pumpType: PumpType, field: string): Promise<number> {
    const [batch] = await tx
      .select()
      .from(batches)
      .where(typeof ref === 'number' ? eq(batches.id, ref) : sql`lower(${batches.batchNo}) = lower(${ref})`)
      .limit(1);
    if (!batch) throw ApiError.field(field, 'Unknown batch.');
    if (batch.batchType !== PUMP_TYPE_CODE[pumpType]) throw ApiError.field(field, `This batch does not hold ${pumpType.toLowerCase()}.`);
    if (batch.isRecalled || batch.expireDate < now().toISOString().slice(0, 10)) throw ApiError.field(field, 'This batch is expired or recalled.');
    return batch.id;
  }

  /** Everything the Add and Edit Device forms have in common, inside the caller's transaction. */
  async function place(tx: Tx, device: DeviceRow, input: DeviceFormInput) {
    const [brand] = await tx.select({ id: brands.id }).from(brands).where(eq(brands.id, input.brandId)).limit(1);
    if (!brand) throw ApiError.field('brandId', 'Unknown brand.');
    const batchId = await resolveBatch(tx, input.batchNumber, input.leftPumpType, 'batchNumber');
    const batch2Id =
      input.rightPumpType === 'Unspecified' || input.batch2Number == null || input.batch2Number === ''
        ? null
        : await resolveBatch(tx, input.batch2Number, input.rightPumpType, 'batch2Number');
    const groupId = await resolveSite(tx, { address: input.address, lat: input.location.lat, lng: input.location.lng, name: input.address.split(',')[0]!.trim() });
    const [clash] = await tx
      .select({ serial: devices.serial })
      .from(devices)
      .where(and(eq(devices.groupId, groupId), eq(devices.number, input.deviceNumber), ne(devices.id, device.id)))
      .limit(1);
    if (clash) throw ApiError.field('deviceNumber', `Number ${input.deviceNumber} is already used at this site (S/N ${clash.serial}).`);
    const previousGroup = device.groupId;
    await tx
      .update(devices)
      .set({
        label: input.deviceName,
        number: input.deviceNumber,
        address: input.address,
        // ~0.1 m is finer than any address fix; stored rounded so every read is short.
        lat: round6(input.location.lat),
        lng: round6(input.location.lng),
        groupId,
        brandId: input.brandId,
        locationEventType: input.locationEventType,
        leftPumpType: input.leftPumpType,
        rightPumpType: input.rightPumpType,
        batchId,
        batch2Id,
        ...(input.simcardPhoneNumber != null ? { simcardPhoneNumber: input.simcardPhoneNumber } : {}),
        ...(input.imei != null ? { imei: input.imei } : {}),
        ...(input.simSerialNumber != null ? { simSerialNumber: input.simSerialNumber } : {}),
      })
      .where(eq(devices.id, device.id));
    await tx
      .insert(pumpSettings)
      .values({ deviceId: device.id, mlPerShot: mlPerShotForMode(2), mlPerShot2: mlPerShotForMode(2) })
      .onConflictDoNothing();
    if (previousGroup && previousGroup !== groupId) await dropEmptySite(tx, previousGroup);
    await recomputeWarnings(tx, [device.id], now().toISOString().slice(0, 10));
  }

  async function dropEmptySite(tx: Tx, groupId: number) {
    await tx.execute(sql`delete from device_groups g where g.id = ${groupId} and not exists (select 1 from devices d where d.group_id = g.id)`);
  }

  async function pendingChange(tx: Tx, viewer: ScopeViewer, device: DeviceRow, kind: 'activation' | 'rental' | 'other', setting: string, desired: unknown, previous: RestorePoint) {
    await requestChange(tx, { deviceId: device.id, kind, setting, desired, previous, requestedBy: viewer.id, nextWakeup: device.nextWakeupTime, now: now() });
  }

  return {
    /** The list as JSON text, straight from the database to the response. */
    listJson: (viewer: ScopeViewer) => repo.listJson(deviceScope(viewer)),
    async get(viewer: ScopeViewer, serial: string) {
      const d = await repo.bySerial(serial, deviceScope(viewer));
      if (!d) throw ApiError.notFound('No device with this serial.');
      return d;
    },

    /** GET /api/v1/deviceRegistered: serial, label, brand, location_id of placed devices in scope. */
    async registered(viewer: ScopeViewer) {
      return db
        .select({ serial: devices.serial, label: devices.label, brand: devices.brandId, location_id: deviceGroups.locationId })
        .from(devices)
        .innerJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
        .where(deviceScope(viewer))
        .orderBy(devices.serial);
    },

    /** GET /api/v1/avaliableDevice: serials provisioned but not placed yet (the Add Device list). */
    async available(viewer: ScopeViewer) {
      requireDistributor(viewer);
      return db
        .select({ serial: devices.serial, left_pump_type: devices.leftPumpType, right_pump_type: devices.rightPumpType, core_ver: devices.coreVer })
        .from(devices)
        .where(sql`${devices.groupId} is null`)
        .orderBy(devices.serial);
    },

    async add(viewer: ScopeViewer, input: DeviceFormInput) {
      requireDistributor(viewer);
      await db.transaction(async (tx) => {
        const [device] = await tx.select().from(devices).where(eq(devices.serial, input.serialNumber)).for('update').limit(1);
        if (!device || device.groupId != null) throw ApiError.field('serialNumber', 'Please select the serial number in the list above');
        await place(tx, device, input);
      });
      return answer(input.serialNumber);
    },

    async edit(viewer: ScopeViewer, serial: string, input: DeviceFormInput) {
      requireDistributor(viewer);
      if (input.serialNumber !== serial) throw ApiError.field('serialNumber', 'The serial number of a device cannot be changed.');
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (input.leftPumpType !== device.leftPumpType) throw ApiError.field('leftPumpType', 'Pump types cannot be changed.');
        if (input.rightPumpType !== device.rightPumpType) throw ApiError.field('rightPumpType', 'Pump types cannot be changed.');
        await place(tx, device, input);
      });
      return answer(serial);
    },

    /**
     * POST /api/v1/deleteDevice/{serial}: takes the device off its site. The hardware and its history
     * stay: the serial returns to the available list and can be placed again.
     */
    async remove(viewer: ScopeViewer, serial: string) {
      requireDistributor(viewer);
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx
          .update(devices)
          .set({ groupId: null, brandId: null, label: '', number: null, address: '', lat: null, lng: null, batchId: null, batch2Id: null, isPause: false })
          .where(eq(devices.id, device.id));
        await tx.delete(userExclusiveDevices).where(eq(userExclusiveDevices.deviceId, device.id));
        await tx.delete(rentals).where(eq(rentals.deviceId, device.id));
        await tx
          .update(pendingChanges)
          .set({ status: 'cancelled', resolvedAt: now() })
          .where(and(eq(pendingChanges.deviceId, device.id), eq(pendingChanges.status, 'pending')));
        await dropEmptySite(tx, device.groupId!);
        await recomputeWarnings(tx, [device.id]);
      });
      return { detail: 'Device has been deleted' };
    },

    /** POST /api/v1/set_device_config/{serial}: one of active, is_enabled_maintenance, is_enabled_vandalism. */
    async setConfig(viewer: ScopeViewer, serial: string, input: { active?: boolean | undefined; is_enabled_maintenance?: boolean | undefined; is_enabled_vandalism?: boolean | undefined }) {
      requireOperator(viewer);
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (input.active !== undefined) {
          const [rental] = await tx.select().from(rentals).where(eq(rentals.deviceId, device.id)).limit(1);
          const today = now().toISOString().slice(0, 10);
          if (rental && rental.startDate <= today && rental.endDate >= today) {
            throw ApiError.field('active', 'Activation cannot change while a rental plan is on.');
          }
          await tx.update(devices).set({ isActivated: input.active }).where(eq(devices.id, device.id));
          await pendingChange(tx, viewer, device, 'activation', 'active', { is_activated: input.active }, { devices: { isActivated: device.isActivated } });
        } else if (input.is_enabled_maintenance !== undefined) {
          await tx.update(devices).set({ isEnabledMaintenance: input.is_enabled_maintenance }).where(eq(devices.id, device.id));
          await pendingChange(tx, viewer, device, 'other', 'is_enabled_maintenance', { is_enabled_maintenance: input.is_enabled_maintenance }, { devices: { isEnabledMaintenance: device.isEnabledMaintenance } });
        } else if (input.is_enabled_vandalism !== undefined) {
          await tx.update(devices).set({ isEnabledVandalism: input.is_enabled_vandalism }).where(eq(devices.id, device.id));
          await pendingChange(tx, viewer, device, 'other', 'is_enabled_vandalism', { is_enabled_vandalism: input.is_enabled_vandalism }, { devices: { isEnabledVandalism: device.isEnabledVandalism } });
        }
      });
      return { detail: 'Your config setup has been successfully saved.', device: await answer(serial) };
    },

    async setPause(viewer: ScopeViewer, serial: string, isPause: boolean) {
      requireOperator(viewer);
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx.update(devices).set({ isPause }).where(eq(devices.id, device.id));
        await pendingChange(tx, viewer, device, 'other', 'pause', { is_pause: isPause }, { devices: { isPause: device.isPause } });
      });
      return answer(serial);
    },

    async pumpSetting(viewer: ScopeViewer, serial: string) {
      const device = await placedInScope(db, viewer, serial);
      const [s] = await db.select().from(pumpSettings).where(eq(pumpSettings.deviceId, device.id));
      return pumpSettingAnswer(s ?? { deviceId: device.id, stepsPerSecond: 300, stepsPerMl: 30, mlPerShot: mlPerShotForMode(2), stepsPerSecond2: 300, stepsPerMl2: 30, mlPerShot2: mlPerShotForMode(2), vandalismMaxShots: 10, vandalismInterval: 60 });
    },

    /** PUT /api/v1/editPumpSetting/{serial}: pump modes 1..8 (as mode or its ml per shot) and vandalism limits. */
    async editPumpSetting(viewer: ScopeViewer, serial: string, input: z.infer<typeof pumpSettingSchema>) {
      requireOperator(viewer);
      const shot = (mode: number | undefined, ml: number | undefined, field: string) => {
        if (mode !== undefined) return mlPerShotForMode(mode);
        if (ml === undefined) return undefined;
        const m = pumpModeForMl(ml);
        if (!m) throw ApiError.field(field, 'ml_per_shot must be one of the pump modes 1 to 8 (1/4 to 2 tsp).');
        return mlPerShotForMode(m);
      };
      const mlPerShot = shot(input.pump_mode, input.ml_per_shot, 'ml_per_shot');
      const mlPerShot2 = shot(input.pump_mode2, input.ml_per_shot2, 'ml_per_shot2');
      const changes = {
        ...(mlPerShot !== undefined ? { mlPerShot } : {}),
        ...(mlPerShot2 !== undefined ? { mlPerShot2 } : {}),
        ...(input.vandalism_max_shots !== undefined ? { vandalismMaxShots: input.vandalism_max_shots } : {}),
        ...(input.vandalism_interval !== undefined ? { vandalismInterval: input.vandalism_interval } : {}),
      };
      if (!Object.keys(changes).length) throw ApiError.badRequest('Nothing to change.');
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (mlPerShot2 !== undefined && device.rightPumpType === 'Unspecified') throw ApiError.field('ml_per_shot2', 'This device has no right pump.');
        const [old] = await tx.select().from(pumpSettings).where(eq(pumpSettings.deviceId, device.id));
        await tx
          .insert(pumpSettings)
          .values({ deviceId: device.id, mlPerShot: mlPerShotForMode(2), mlPerShot2: mlPerShotForMode(2), ...changes })
          .onConflictDoUpdate({ target: pumpSettings.deviceId, set: { ...changes, stepsPerSecond: 300, stepsPerMl: 30, stepsPerSecond2: 300, stepsPerMl2: 30 } });
        const previous = old ? { mlPerShot: old.mlPerShot, mlPerShot2: old.mlPerShot2, vandalismMaxShots: old.vandalismMaxShots, vandalismInterval: old.vandalismInterval } : {};
        await pendingChange(tx, viewer, device, 'other', 'pump_setting', changes, { pumpSettings: previous });
      });
      return { detail: 'Your pump settings have been successfully updated.', ...(await this.pumpSetting(viewer, serial)) };
    },

    /** POST /api/v1/deviceRegistrationSetup/{serial}: sleep and awake timers in minutes, clamped to 1..600. */
    async registrationSetup(viewer: ScopeViewer, serial: string, input: { powerOffTime: number; wakeUpTime: number }) {
      requireOperator(viewer);
      const powerOff = clampTimerMinutes(input.powerOffTime);
      const wakeUp = clampTimerMinutes(input.wakeUpTime);
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        await tx.update(devices).set({ poweroffTime: String(powerOff), wakeup1Time: String(wakeUp) }).where(eq(devices.id, device.id));
        await pendingChange(tx, viewer, device, 'other', 'registration_timer', { poweroff_time: powerOff, wakeup1_time: wakeUp }, { devices: { poweroffTime: device.poweroffTime, wakeup1Time: device.wakeup1Time } });
      });
      return { detail: 'Your time setup has been successfully saved.', poweroff_time: powerOff, wakeup1_time: wakeUp, device: await answer(serial) };
    },

    /** POST /api/v1/resetMl/{serial}: after a refill, the remaining volume of that pump is its full reservoir again. */
    async resetMl(viewer: ScopeViewer, serial: string, pumpNumber: 1 | 2) {
      requireOperator(viewer);
      await db.transaction(async (tx) => {
        const device = await placedInScope(tx, viewer, serial);
        if (pumpNumber === 2 && device.rightPumpType === 'Unspecified') throw ApiError.field('pumpNumber', 'This device has no right pump.');
        await tx
          .update(devices)
          .set(pumpNumber === 1 ? { volumeRemain: device.reservoirMl, levelSensor1: true } : { volumeRemain2: device.reservoirMl, levelSensor2: true })
          .where(eq(devices.id, device.id));
        await pendingChange(tx, viewer, device, 'other', `reset_ml_${pumpNumber}`, { pump_number: pumpNumber, volume_remain: device.reservoirMl }, {
          devices: pumpNumber === 1 ? { volumeRemain: device.volumeRemain, levelSensor1: device.levelSensor1 } : { volumeRemain2: device.volumeRemain2, levelSensor2: device.levelSensor2 },
        });
        await recomputeWarnings(tx, [device.id], now().toISOString().slice(0, 10));
      });
      return answer(serial);
    },

    /** POST /api/v1/cancelPendingChange/{id}: withdraw a change before the device takes it. */
    async cancelPending(viewer: ScopeViewer, id: number) {
      requireOperator(viewer);
      const serial = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ change: pendingChanges, serial: devices.serial })
          .from(pendingChanges)
          .innerJoin(devices, eq(devices.id, pendingChanges.deviceId))
          .where(and(eq(pendingChanges.id, id), sql`${devices.groupId} is not null`, deviceScope(viewer)))
          .for('update')
          .limit(1);
        if (!row) throw ApiError.notFound('No pending change with this id.');
        if (row.change.status !== 'pending') throw ApiError.badRequest(`This change is no longer pending (${row.change.status}).`);
        await cancelChange(tx, row.change, now());
        await recomputeWarnings(tx, [row.change.deviceId], now().toISOString().slice(0, 10));
        return row.serial;
      });
      return { detail: 'The change was cancelled.', device: await answer(serial) };
    },

    async rental(viewer: ScopeViewer, serial: string) {
      const device = await placedInScope(db, viewer, serial);
      const [r] = await db.select().from(rentals).where(eq(rentals.deviceId, device.id));
      if (!r) return { start_date: null, end_date: null, start_time: null, end_time: null, pump_2_start_time: null, pump_2_end_time: null, day_count: 0 };
      return rentalAnswer(r);
    },

    /** POST /api/v1/rentalV2: one plan for every selected device, all or nothing. */
    async setRental(viewer: ScopeViewer, input: RentalInput) {
      requireOperator(viewer);
      const serials = [...new Set(input.serials)];
      const saved = await db.transaction(async (tx) => {
        const rows = await tx.select().from(devices).where(and(inArray(devices.serial, serials), sql`${devices.groupId} is not null`, deviceScope(viewer)));
        const missing = serials.filter((s) => !rows.some((r) => r.serial === s));
        if (missing.length) throw new ApiError(404, { detail: `No device with serial ${missing.join(', ')}.` });
        const out = [];
        for (const device of rows) {
          const wantsPump2 = !!(input.pump2StartTime || input.pump2EndTime);
          if (wantsPump2 && !supportsRightPump({ right_pump_type: device.rightPumpType, core_ver: device.coreVer })) {
            throw ApiError.field('pump2StartTime', `Device ${device.serial} has no right pump that can be scheduled.`);
          }
          const values = {
            startDate: input.startDate,
            endDate: input.endDate,
            startTime: input.startTime ?? null,
            endTime: input.endTime ?? null,
            pump2StartTime: input.pump2StartTime ?? null,
            pump2EndTime: input.pump2EndTime ?? null,
            updatedAt: now(),
          };
          const [before] = await tx.select().from(rentals).where(eq(rentals.deviceId, device.id));
          const [r] = await tx.insert(rentals).values({ deviceId: device.id, ...values }).onConflictDoUpdate({ target: rentals.deviceId, set: values }).returning();
          await tx.update(devices).set({ active: '1' }).where(eq(devices.id, device.id));
          const { updatedAt: _u, ...previousRental } = before ?? { updatedAt: null };
          await pendingChange(tx, viewer, device, 'rental', 'rental', { start_date: input.startDate, end_date: input.endDate, start_time: values.startTime, end_time: values.endTime, pump_2_start_time: values.pump2StartTime, pump_2_end_time: values.pump2EndTime }, {
            devices: { active: device.active },
            rental: before ? (previousRental as RestorePoint['rental']) : null,
          });
          out.push({ serial: device.serial, ...rentalAnswer(r!) });
        }
        return out;
      });
      return { detail: 'New plan has been successfully set', rentals: saved };
    },
  };
}
export type DevicesService = ReturnType<typeof devicesService>;

function pumpSettingAnswer(s: typeof pumpSettings.$inferSelect) {
  return {
    steps_per_second: s.stepsPerSecond,
    steps_per_ml: s.stepsPerMl,
    ml_per_shot: s.mlPerShot,
    pump_mode: pumpModeForMl(s.mlPerShot),
    steps_per_second2: s.stepsPerSecond2,
    steps_per_ml2: s.stepsPerMl2,
    ml_per_shot2: s.mlPerShot2,
    pump_mode2: pumpModeForMl(s.mlPerShot2),
    vandalism_max_shots: s.vandalismMaxShots,
    vandalism_interval: s.vandalismInterval,
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const hhmm = (t: string | null) => (t ? t.slice(0, 5) : null);
function rentalAnswer(r: typeof rentals.$inferSelect) {
  return {
    start_date: r.startDate,
    end_date: r.endDate,
    start_time: hhmm(r.startTime),
    end_time: hhmm(r.endTime),
    pump_2_start_time: hhmm(r.pump2StartTime),
    pump_2_end_time: hhmm(r.pump2EndTime),
    day_count: rentalDayCount(r.startDate, r.endDate),
  };
}
