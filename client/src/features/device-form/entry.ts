import type { DeviceAnswer } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { $accessLevel, sessionEnded } from '../../entities/session';

/**
 * What other views need of the ADD NEW DEVICE and EDIT DEVICE popups, without the popups' own models:
 * the events that open them and that say a device was saved or deleted, and who may use them. The form
 * itself (model.ts and its dialog, about 130 effector units) is a chunk of its own (device-form-part.tsx), loaded
 * when a form is first asked for, not evaluated with the map page on every sign-in (issue 16).
 */
export const addDeviceOpened = createEvent();
export const editDeviceOpened = createEvent<string>();
export const deviceFormClosed = createEvent();
/** A device was added or edited: its new answer (the device panel shows it at once). */
export const deviceSaved = createEvent<DeviceAnswer>();
/** A device was taken off its site. */
export const deviceDeleted = createEvent<string>();

/**
 * Placing the device on the map (issue 42): the form asks for it (with the pin's current place, if any),
 * the map answers each place the pin is dropped or dragged to, and says when the person is done or
 * cancelled; the form names the pin by the nearest town. The page connects these to the map's own events.
 */
export type LatLngPoint = { lat: number; lng: number };
export const placeOnMapRequested = createEvent<LatLngPoint | null>();
export const pinPlacedOnMap = createEvent<LatLngPoint>();
export const placingOnMapEnded = createEvent<'done' | 'cancelled'>();
export const pinNamed = createEvent<string | null>();

/** The popups' titles (spec section 2), shown by the form and by the map page while the form's code loads. */
export const DEVICE_FORM_TITLE = { add: 'ADD NEW DEVICE', edit: 'EDIT DEVICE' } as const;

export const $canManageDevices = $accessLevel.map((level) => level === 'distributor');

/**
 * The last form asked for (an edit's serial, null for add) and how many have been: the map page shows the
 * form's part from the first, and the part answers that first one when it has loaded (device-form-part.tsx).
 */
export type DeviceFormAsk = { count: number; serial: string | null };
export const $deviceFormAsk = createStore<DeviceFormAsk>({ count: 0, serial: null });
sample({
  clock: addDeviceOpened,
  source: $deviceFormAsk,
  filter: $canManageDevices,
  fn: ({ count }): DeviceFormAsk => ({ count: count + 1, serial: null }),
  target: $deviceFormAsk,
});
sample({
  clock: editDeviceOpened,
  source: $deviceFormAsk,
  filter: $canManageDevices,
  fn: ({ count }, serial): DeviceFormAsk => ({ count: count + 1, serial }),
  target: $deviceFormAsk,
});
$deviceFormAsk.reset(sessionEnded);
