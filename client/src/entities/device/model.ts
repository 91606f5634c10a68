import type { DeviceListItemShape } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { createApiFx, http } from '../../shared/api';

/** A device of GET /api/v1/device (spec section 3; the answer carries more fields than typed here). */
export type Device = DeviceListItemShape & { location_event_type?: string; [field: string]: unknown };
export type DevicePatch = Partial<Device>;
export type DeviceRecord = Record<string, Device>;

export const devicesRequested = createEvent();
/** Patches keyed by serial, already merged (latest value per field wins). */
export const devicesPatched = createEvent<Record<string, DevicePatch>>();
export const devicePinClicked = createEvent<string>();
export const deviceSelectionCleared = createEvent();
/** The session ended: nothing of the last user stays in memory. */
export const devicesCleared = createEvent();

export const fetchDevicesFx = createApiFx<void, Device[]>(() => http<Device[]>('/api/v1/device'));

/** Normalised: one entry per serial, so a realtime patch touches one key. */
export const $devices = createStore<DeviceRecord>({});
export const $devicesStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
export const $selectedSerial = createStore<string | null>(null);
export const $selectedDevice = sample({
  source: { devices: $devices, serial: $selectedSerial },
  fn: ({ devices, serial }) => (serial ? (devices[serial] ?? null) : null),
});
export const $deviceSerials = $devices.map((devices) => Object.keys(devices));

export function normaliseDevices(list: readonly Device[]): DeviceRecord {
  const record: DeviceRecord = {};
  for (const device of list) record[device.serial] = device;
  return record;
}

/**
 * Applies patches to known devices only (a patch is not a whole device: an unknown serial waits for
 * the next REST snapshot). Returns the same object when nothing changed, so nothing re-renders.
 */
export function applyDevicePatches(devices: DeviceRecord, patches: Record<string, DevicePatch>): DeviceRecord {
  let next: DeviceRecord | null = null;
  for (const [serial, patch] of Object.entries(patches)) {
    const current = devices[serial];
    if (!current) continue;
    next ??= { ...devices };
    next[serial] = { ...current, ...patch, serial } as Device;
  }
  return next ?? devices;
}

$devices.on(fetchDevicesFx.doneData, (_, list) => normaliseDevices(list)).on(devicesPatched, applyDevicePatches);
$devicesStatus
  .on(fetchDevicesFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchDevicesFx.done, () => 'ready')
  .on(fetchDevicesFx.fail, (status) => (status === 'ready' ? status : 'failed'));
$selectedSerial.on(devicePinClicked, (_, serial) => serial).reset(deviceSelectionCleared, devicesCleared);
$devices.reset(devicesCleared);
$devicesStatus.reset(devicesCleared);

sample({ clock: devicesRequested, fn: () => undefined, target: fetchDevicesFx });
