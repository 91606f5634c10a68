import type { DevicePin } from '@fleet/shared';
import type { Device } from '../model';

/** A plausible device for model tests: online, regular, placed at the map's centre. */
export function fakeDevice(serial: string, fields: Partial<Device> = {}): Device {
  return {
    id: 1,
    serial,
    label: serial,
    number: 1,
    address: '',
    location: { lat: 30, lng: -90.26 },
    location_id: 1,
    location_group: Number(serial.replace(/\D/g, '')) || 1,
    brand: null,
    brand_name: null,
    left_pump_type: 'Sunscreen',
    right_pump_type: 'Unspecified',
    batchNumber: null,
    batch2Number: null,
    level_sensor1: true,
    level_sensor2: true,
    volume_remain: 500,
    volume_remain2: 0,
    is_pause: false,
    is_activated: true,
    is_online: true,
    is_registration: false,
    is_warning: false,
    is_batch_warning: false,
    is_maintenance: false,
    warning_lists: [],
    pending_flags: { activation_changed: false, rental_changed: false, others: false },
    next_wakeup_time: null,
    last_seen_at: null,
    core_ver: null,
    signal_quality: null,
    battery_percent: 80,
    battery_volt: null,
    market_partners: [],
    location_event_type: 'SITE',
    batch: null,
    batch2: false,
    active: null,
    is_enabled_vandalism: false,
    is_enabled_maintenance: false,
    poweroff_time: null,
    wakeup1_time: null,
    battery_warning: false,
    rental: null,
    simcardPhoneNumber: null,
    imei: null,
    simSerialNumber: null,
    ...fields,
  };
}

/** The compact pins (GET /api/v1/devicePins, decoded) of these devices, keyed by serial, for model tests. */
export function pinsOf(devices: readonly Device[]): Map<string, DevicePin> {
  return new Map(
    devices.map((d) => [
      d.serial,
      {
        serial: d.serial,
        location: d.location ?? null,
        label: d.label,
        number: d.number,
        location_group: d.location_group,
        brand: d.brand,
        is_pause: d.is_pause,
        is_warning: d.is_warning,
        is_online: d.is_online,
        is_registration: d.is_registration,
        is_activated: d.is_activated,
        is_batch_warning: d.is_batch_warning,
        is_maintenance: d.is_maintenance,
      },
    ]),
  );
}
