import {
  decodeDevicePin,
  type DeviceAnswer,
  type DeviceListItemShape,
  type DevicePin,
  type DevicePinTuple,
  devicesApi,
} from '@fleet/shared';
import { combine, createEvent, createStore, sample, type Store } from 'effector';
import { call, callBody, createApiFx } from '../../shared/api';
import { eachJsonLine, yieldToBrowser } from '../../shared/lib';
import { placedTally } from './lib/placed-pins';

/** A device of GET /api/v1/device (spec section 3; the answer carries more fields than typed here). */
export type Device = DeviceListItemShape & { location_event_type?: string; [field: string]: unknown };
export type DevicePatch = Partial<Device>;
export type DeviceRecord = Record<string, Device>;

/**
 * The fleet changed (a write, a reconnect): re-read the pin feed, and the full list if a view has asked
 * for it. The full list is never read just because of this.
 */
export const devicesRequested = createEvent();
/** A view that shows the full device answer of many devices (lists, the status report) is on screen. */
export const deviceListNeeded = createEvent();
/** The map's pins: read once at sign-in (and again by devicesRequested). */
export const pinsRequested = createEvent();
/**
 * Pin deltas (the `pins` topic's 'pins:changed', merged over a throttle window): whole pins added or
 * changed, serials gone. The map applies them instead of reading the feed again (issue 46).
 */
export type PinDelta = { upserts: readonly DevicePinTuple[]; removed: readonly string[] };
export const pinsChanged = createEvent<PinDelta>();
/** Patches keyed by serial, already merged (latest value per field wins). */
export const devicesPatched = createEvent<Record<string, DevicePatch>>();
export const devicePinClicked = createEvent<string>();
/**
 * A device selected by a view that reads the device itself (the device panel): the pin is selected and
 * the map centres on it, but no second read of the same device is made for the card behind the panel.
 */
export const deviceSelected = createEvent<string>();
export const deviceSelectionCleared = createEvent();
/** The session ended: nothing of the last user stays in memory. */
export const devicesCleared = createEvent();
/**
 * One device's full answer arrived outside the list: a single read (the device panel's) or a write's
 * answer (pause, settings, EDIT DEVICE). It lands in the detail cache and refreshes the device's list
 * entry, so every view of that device shows the same fields.
 */
export const deviceAnswered = createEvent<Device>();

export const fetchDevicesFx = createApiFx<void, Device[]>(() => call(devicesApi.list));
/**
 * GET /api/v1/devicePins: about 60 bytes a device instead of the list's 1.1 KB, answered as the pins by
 * serial. The answer is parsed, decoded and keyed a slice of tuples a task (the server writes one a line):
 * at 100,000 pins one parse was a task of 180-280 ms, and keying the parsed list another of 160 ms, under
 * a 4x CPU slowdown (tests/perf/map-trace.ts). The placed pins and their counts are gathered on the way
 * (lib/placed-pins.ts). It is read as it arrives, never as one string (the 7.47 MB
 * body read whole reached the page in one task of 433 ms: Chromium's copy of it for DevTools, in a trace with Blink's
 * categories). It is handed to the stores in a task of its own.
 */
export const fetchDevicePinsFx = createApiFx<void, PinRecord>(async () => {
  const pins = new Map<string, DevicePin>();
  const placed = placedTally();
  let tuples = 0;
  await eachJsonLine(await callBody(devicesApi.pins), (tuple) => {
    const pin = decodeDevicePin(tuple as DevicePinTuple);
    pins.set(pin.serial, pin);
    placed.add(pin);
    tuples += 1;
  });
  // A serial twice in the feed: the tally holds both, so the record is walked when a view asks for it.
  if (pins.size === tuples) placed.keep(pins);
  await yieldToBrowser();
  return pins;
});
/** One device's full answer, for the selected pin's card while the full list is not loaded. */
export const fetchDeviceDetailsFx = createApiFx<string, Device>((serial) => call(devicesApi.get, { params: { serial } }));

/** Normalised: one entry per serial, so a realtime patch touches one key. */
export const $devices = createStore<DeviceRecord>({});
export const $devicesStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
export const $selectedSerial = createStore<string | null>(null);
/**
 * The compact pins of the whole fleet, by serial: what the map, the Active Pin counts and the live
 * subscriptions need. The full answers ($devices) are read only when a view needs them.
 */
export type PinRecord = ReadonlyMap<string, DevicePin>;
/**
 * A Map, not an object: at 100,000 pins a walk over an object's values took 49 ms (about 200 under
 * Lighthouse's 4x CPU slowdown) and a copy 63 ms, a Map's 5 and 12 (Node, this machine).
 */
export const $devicePins = createStore<PinRecord>(new Map(), { serialize: 'ignore' });
export const $pinsStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
/**
 * The detail cache: full answers of single devices by serial (the device panel's read, a pin's card read
 * before the list was needed, a write's answer), kept live by the same patches as the list. It is where
 * the fields only the single answer carries live (DETAIL_FIELDS); a device's list fields are read from
 * the list when the list holds it (see fullDevice), so a list and a panel never disagree.
 */
const $deviceDetails = createStore<DeviceRecord>({});

/** The fields of the single-device answer that the list answer does not carry. */
type DetailField = Exclude<keyof DeviceAnswer, keyof DeviceListItemShape>;
const DETAIL_FIELDS = ['timezone_id', 'brand_image_url', 'batch2Id', 'pending_changes'] as const satisfies readonly DetailField[];
// None left out either: a field added to the single answer only is a compile error here until listed.
const _everyDetailField: [DetailField] extends [(typeof DETAIL_FIELDS)[number]] ? true : never = true;

/** A full answer without its detail fields: what the device's list entry takes from it. */
export function listFieldsOf(device: Device): Device {
  const fields = { ...device };
  for (const field of DETAIL_FIELDS) delete fields[field];
  return fields;
}

/**
 * One device as every view shows it: its list entry when the list holds it, with the detail fields of
 * its single answer (and the whole single answer when the list does not hold it).
 */
export function fullDevice(listed: Device | null, detail: Device | null): Device | null {
  if (!detail) return listed ?? null;
  if (!listed) return detail;
  const device = { ...detail, ...listed };
  for (const field of DETAIL_FIELDS) if (field in detail) device[field] = detail[field];
  return device;
}

/**
 * The device of the serial a store names, from the list and the detail cache. Each part is picked by
 * serial first, so a patch to another device recomputes nothing here.
 */
export function deviceOf($serial: Store<string | null>): Store<Device | null> {
  // null, not undefined, for none: a store skips an update to undefined.
  const $listed = combine($devices, $serial, (devices, serial) => (serial ? (devices[serial] ?? null) : null));
  const $detail = combine($deviceDetails, $serial, (details, serial) => (serial ? (details[serial] ?? null) : null));
  return combine($listed, $detail, fullDevice);
}
export const $selectedDevice = deviceOf($selectedSerial);
/**
 * What one view shows now, from a read of its own (a list's pages, the device panel's site, /status):
 * `serials` replaces what that view showed before; an empty list when it closes. Their pushes
 * (device:changed) are wanted while some view shows them (features/live-devices).
 */
export const viewShows = createEvent<{ view: string; serials: readonly string[] }>();
/** Wires a view's store of the devices it holds to the live subscriptions (see viewShows). */
export function keepLive(view: string, $serials: Store<readonly string[]>) {
  sample({ clock: $serials.updates, fn: (serials) => ({ view, serials }), target: viewShows });
}
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((serial, at) => serial === b[at]);
const $viewSerials = createStore<Readonly<Record<string, readonly string[]>>>({}, { serialize: 'ignore' })
  .on(viewShows, (views, { view, serials }) => {
    const before = views[view];
    if (before ? sameList(before, serials) : serials.length === 0) return views;
    const next = { ...views };
    if (serials.length) next[view] = serials;
    else delete next[view];
    return next;
  })
  .reset(devicesCleared);
/**
 * Devices asked about one at a time (a single answer, a pin clicked, a device selected): the latest few are
 * kept live, so a card just opened stays current without every device ever opened staying subscribed.
 */
export const RECENT_SINGLES = 50;
const withRecent = (recent: readonly string[], serial: string) =>
  recent[recent.length - 1] === serial ? recent : [...recent.filter((s) => s !== serial), serial].slice(-RECENT_SINGLES);
const $recentSingles = createStore<readonly string[]>([], { serialize: 'ignore' })
  .on(deviceAnswered, (recent, device) => withRecent(recent, device.serial))
  .on([devicePinClicked, deviceSelected], withRecent)
  .reset(devicesCleared);
/** The whole list, while a view has read it (it is kept as a cache until sign-out). */
const $listSerials = createStore<readonly string[]>([], { serialize: 'ignore' })
  .on(fetchDevicesFx.doneData, (_, list) => list.map((d) => d.serial))
  .reset(devicesCleared);
/**
 * The serials whose device:changed pushes a view needs: what views show now, not every pin. The map's pins
 * follow their own deltas (topic `pins`, from the change path), so at 100,000 devices a tab on the map
 * asks the pollers for no device's cards (issue 46). It shrinks as views close or move to other rows, so a
 * day of paging through lists does not end subscribed to the fleet; it empties at sign-out.
 */
export const $liveSerials = combine($viewSerials, $recentSingles, $listSerials, (views, recent, list) => {
  const live = new Set<string>(list);
  for (const serials of Object.values(views)) for (const serial of serials) live.add(serial);
  for (const serial of recent) live.add(serial);
  return [...live];
});

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

/** The fields of a device:changed patch that a pin carries. */
const PIN_FIELDS = [
  'label',
  'location',
  'number',
  'location_group',
  'brand',
  'is_pause',
  'is_warning',
  'is_online',
  'is_registration',
  'is_activated',
  'is_batch_warning',
  'is_maintenance',
] as const;

/** Applies the pin fields of patches to known pins; the same object when no pin changed. */
export function applyPinPatches(pins: PinRecord, patches: Record<string, DevicePatch>): PinRecord {
  let next: Map<string, DevicePin> | null = null;
  for (const [serial, patch] of Object.entries(patches)) {
    const current = pins.get(serial);
    if (!current) continue;
    let pin: DevicePin | null = null;
    for (const field of PIN_FIELDS) {
      if (!(field in patch) || patch[field] === current[field]) continue;
      pin ??= { ...current };
      (pin as Record<string, unknown>)[field] = patch[field] ?? (field.startsWith('is_') ? false : null);
    }
    if (!pin) continue;
    next ??= new Map(pins);
    next.set(serial, pin);
  }
  return next ?? pins;
}

/** The pins with a delta applied: one copy of the record for the whole delta, none when it is empty. */
function applyPinDelta(pins: PinRecord, { upserts, removed }: PinDelta): PinRecord {
  if (upserts.length === 0 && !removed.some((serial) => pins.has(serial))) return pins;
  const next = new Map(pins);
  for (const serial of removed) next.delete(serial);
  for (const tuple of upserts) {
    const pin = decodeDevicePin(tuple as DevicePinTuple);
    next.set(pin.serial, pin);
  }
  return next;
}

/** Merges patches by serial, the later value of a field winning. */
function mergePatches(into: Record<string, DevicePatch>, patches: Record<string, DevicePatch>): Record<string, DevicePatch> {
  const next = { ...into };
  for (const [serial, patch] of Object.entries(patches)) next[serial] = { ...next[serial], ...patch };
  return next;
}

/**
 * Changes that arrived while a read of the list or of the pin feed was on its way: pushed patches and
 * single answers (a write's answer, the panel's read). The server took the read's answer at some moment
 * of that trip, possibly before these changes, so they are laid over it when it lands; otherwise the
 * older values would stand until the device's next push (a rename or a pause made during a slow list
 * read showing the old name or state again). Kept until no read of that kind is on its way.
 */
const $listReadChanges = createStore<Record<string, DevicePatch>>({}, { serialize: 'ignore' });
const $pinsReadChanges = createStore<Record<string, DevicePatch>>({}, { serialize: 'ignore' });
const changeArrived = createEvent<Record<string, DevicePatch>>();
sample({ clock: devicesPatched, target: changeArrived });
sample({
  clock: deviceAnswered,
  fn: (device): Record<string, DevicePatch> => ({ [device.serial]: listFieldsOf(device) }),
  target: changeArrived,
});
sample({
  clock: changeArrived,
  source: { pending: fetchDevicesFx.pending, changes: $listReadChanges },
  filter: ({ pending }) => pending,
  fn: ({ changes }, patches) => mergePatches(changes, patches),
  target: $listReadChanges,
});
sample({
  clock: changeArrived,
  source: { pending: fetchDevicePinsFx.pending, changes: $pinsReadChanges },
  filter: ({ pending }) => pending,
  fn: ({ changes }, patches) => mergePatches(changes, patches),
  target: $pinsReadChanges,
});
sample({
  clock: fetchDevicesFx.doneData,
  source: $listReadChanges,
  fn: (changes, list) => applyDevicePatches(normaliseDevices(list), changes),
  target: $devices,
});
sample({
  clock: fetchDevicePinsFx.doneData,
  source: $pinsReadChanges,
  fn: (changes, pins) => applyPinPatches(pins, changes),
  target: $devicePins,
});
// Cleared once the last read of its kind has landed (effector counts the reads on their way).
sample({
  clock: fetchDevicesFx.finally,
  source: fetchDevicesFx.inFlight,
  filter: (reads) => reads === 0,
  fn: () => ({}),
  target: $listReadChanges,
});
sample({
  clock: fetchDevicePinsFx.finally,
  source: fetchDevicePinsFx.inFlight,
  filter: (reads) => reads === 0,
  fn: () => ({}),
  target: $pinsReadChanges,
});
$listReadChanges.reset(devicesCleared);
$pinsReadChanges.reset(devicesCleared);

$devices
  .on(devicesPatched, applyDevicePatches)
  .on(deviceAnswered, (devices, device) => applyDevicePatches(devices, { [device.serial]: listFieldsOf(device) }));
$devicePins.on(devicesPatched, applyPinPatches).on(pinsChanged, applyPinDelta).reset(devicesCleared);
$pinsStatus
  .on(fetchDevicePinsFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchDevicePinsFx.done, () => 'ready')
  .on(fetchDevicePinsFx.fail, (status) => (status === 'ready' ? status : 'failed'))
  .reset(devicesCleared);
$deviceDetails
  .on(deviceAnswered, (details, device) => ({ ...details, [device.serial]: { ...details[device.serial], ...device } }))
  .on(devicesPatched, applyDevicePatches)
  .reset(devicesCleared);
$devicesStatus
  .on(fetchDevicesFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchDevicesFx.done, () => 'ready')
  .on(fetchDevicesFx.fail, (status) => (status === 'ready' ? status : 'failed'));
$selectedSerial.on([devicePinClicked, deviceSelected], (_, serial) => serial).reset(deviceSelectionCleared, devicesCleared);
$devices.reset(devicesCleared);
$devicesStatus.reset(devicesCleared);

sample({ clock: [pinsRequested, devicesRequested], fn: () => undefined, target: fetchDevicePinsFx });
// The full list again only where a view already read it.
sample({
  clock: devicesRequested,
  source: $devicesStatus,
  filter: (status) => status !== 'idle',
  fn: () => undefined,
  target: fetchDevicesFx,
});
sample({
  clock: deviceListNeeded,
  source: { status: $devicesStatus, pending: fetchDevicesFx.pending },
  filter: ({ status, pending }) => !pending && (status === 'idle' || status === 'failed'),
  fn: () => undefined,
  target: fetchDevicesFx,
});
sample({ clock: fetchDeviceDetailsFx.doneData, target: deviceAnswered });
// A pin's card shows the full answer: read that one device unless the list already holds it.
sample({
  clock: devicePinClicked,
  source: { devices: $devices, details: $deviceDetails },
  filter: ({ devices, details }, serial) => !devices[serial] && !details[serial],
  fn: (_, serial) => serial,
  target: fetchDeviceDetailsFx,
});
