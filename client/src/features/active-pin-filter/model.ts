import { combine, createEvent, createStore } from 'effector';
import type { DevicePin } from '@fleet/shared';
import { $devicePins, $pinsStatus, pinTypeCountsOf, pinTypeOf, placedPinsOf, type PinType } from '../../entities/device';

/**
 * The Active Pin panel (spec section 2): Synced (regular), pause and warning pins can each be turned
 * off; a disabled type is dimmed in the panel and its pins are hidden from the map (and its clusters).
 */
export type EnabledPinTypes = Record<PinType, boolean>;

export const pinTypeToggled = createEvent<PinType>();
export const pinFilterReset = createEvent();

export const $enabledPinTypes = createStore<EnabledPinTypes>({ regular: true, pause: true, warning: true });
$enabledPinTypes.on(pinTypeToggled, (enabled, type) => ({ ...enabled, [type]: !enabled[type] })).reset(pinFilterReset);

/**
 * Devices that have a place on the map, whatever the filter (from the compact pin feed; gathered as the feed
 * is parsed, entities/device/lib/placed-pins.ts).
 */
export const $placedDevices = $devicePins.map(placedPinsOf);

export function filterPins<T extends Pick<DevicePin, 'is_pause' | 'is_warning' | 'is_online' | 'is_registration'>>(
  devices: readonly T[],
  enabled: EnabledPinTypes,
): T[] {
  if (enabled.regular && enabled.pause && enabled.warning) return devices as T[];
  return devices.filter((device) => enabled[pinTypeOf(device)]);
}

/** The pins the map shows. */
export const $visibleDevices = combine($placedDevices, $enabledPinTypes, filterPins);

/** How many placed devices each toggle governs. */
export const $pinTypeCounts = $placedDevices.map(pinTypeCountsOf);

/**
 * Whether the counts mean anything: not before the pin feed's first answer. While it loads, or when it
 * failed ('The devices could not be loaded.' beside the dashboard), a 0 beside each toggle would say the
 * fleet has no such devices; the panel shows no number instead.
 */
export const $pinCountsKnown = $pinsStatus.map((status) => status === 'ready');
