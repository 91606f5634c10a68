import { devicesApi, telemetryApi } from '@fleet/shared';
import type { DeviceAnswer, SimLogRow, Subscription } from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample, type Event, type Store } from 'effector';
import {
  $devices,
  applyDevicePatches,
  deviceAnswered,
  deviceOf,
  devicesCleared,
  devicesPatched,
  deviceSelected,
  normaliseDevices,
  keepLive,
  type Device,
} from '../../entities/device';
import { deviceDeleted, deviceSaved } from '../../features/device-form';
import { call, createApiFx, HttpError } from '../../shared/api';
import { smsLogAppendedReceived, socketConnected, subscribeFx, unsubscribeFx } from '../../shared/realtime';
import { $location, $pathname, $query, locationSynced, navigated, ROUTES } from '../../shared/routing';
import type { PanelSection } from './lib/panel-lib';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

export type { PanelSection };

/**
 * The device management panel (spec section 2): a full-screen overlay for one site group, showing one
 * device at a time. It loads the device once over REST and then lives on pushes: it subscribes to the
 * `device` topic (10 s panel schedule) of the device it shows and, while the SIM section is open, to
 * its `simLog` topic (15 s). Switching device or section moves the subscriptions; closing drops them.
 * The device itself lives in the device store (entities/device): the read and the writes' answers go into
 * its detail cache, the pushes (pending_flags among their fields) reach it through live-devices, and the
 * panel only names the serial it shows, so the panel and the lists behind it can never disagree.
 * After a reconnect it subscribes again and re-reads what it shows (changes while away were not pushed).
 *
 * The panel can be opened by address too: `/?device=<serial>` (a link to share, and a keyboard route to
 * a device whose pin is on a canvas).
 */
export type PanelDevice = DeviceAnswer;
export const DEVICE_QUERY = 'device';

export const panelOpened = createEvent<string>();
export const panelClosed = createEvent();
export const panelDeviceSelected = createEvent<string>();
export const sectionSelected = createEvent<PanelSection>();
export const collapseToggled = createEvent();
/**
 * The sections' chunk has loaded (ui/sections-part, downloaded when a panel first opens): its models, made
 * only now, read what is already open (their reads are clocked by stores, whose updates they may have missed).
 */
export const panelPartsLoaded = createEvent();
/**
 * `store`'s value when the sections' chunk says it loaded, but only if the store has not changed since the
 * model calling this was made: a change since then has already clocked the model's reads, and reading again
 * would read twice (the form shown, then 'Loading ...' again, then the form). That happens when the device or
 * the session check answers between the chunk's evaluation and its first showing.
 */
export function valueAtLoad<T>(store: Store<T>): Event<T> {
  const $unchanged = createStore(true).on(store.updates, () => false);
  return sample({ clock: panelPartsLoaded, source: store, filter: $unchanged });
}
/** A write answered with the device (pause, config, reset, cancel): apply it at once, the push follows. */
export const panelDeviceReplaced = createEvent<PanelDevice>();

export const fetchPanelDeviceFx = createApiFx((serial: string): Promise<PanelDevice> =>
  call(devicesApi.get, { params: { serial } }),
);
export const fetchSimLogFx = createApiFx((serial: string) =>
  call(telemetryApi.simLog, { params: { serial }, query: { limit: 50 } }),
);

type Watch = { serial: string | null; sim: boolean };
/** Moves the panel's subscriptions from what it watched to what it watches now. */
export const moveSubscriptionsFx = createEffect(async ({ from, to }: { from: Watch; to: Watch }) => {
  const subs = (w: Watch): Subscription[] =>
    w.serial
      ? [{ topic: 'device', serial: w.serial }, ...(w.sim ? [{ topic: 'simLog', serial: w.serial } as Subscription] : [])]
      : [];
  const key = (s: Subscription) => JSON.stringify(s);
  const next = new Set(subs(to).map(key));
  const prev = new Set(subs(from).map(key));
  for (const s of subs(from)) if (!next.has(key(s))) await unsubscribeFx(s);
  for (const s of subs(to)) if (!prev.has(key(s))) await subscribeFx(s);
});
const resubscribeFx = createEffect(async (to: Watch) => {
  await moveSubscriptionsFx({ from: { serial: null, sim: false }, to });
});

export const $panelSerial = createStore<string | null>(null);
/** 'missing': the device is unknown or outside the caller's scope (404): nothing more is asked for it. */
export const $panelStatus = createStore<'idle' | 'loading' | 'ready' | 'failed' | 'missing'>('idle');
/**
 * The device shown: the device store's device of $panelSerial, once the panel's read for that serial has
 * answered (not an answer remembered from an earlier opening, and never a device the server did not find).
 */
export const $panelDevice = combine(deviceOf($panelSerial), $panelStatus, (device, status) =>
  status === 'ready' ? (device as unknown as PanelDevice | null) : null,
);
export const $section = createStore<PanelSection>('dashboard');
export const $collapsed = createStore(false);
export const $smsLog = createStore<SimLogRow[] | null>(null);
export const $smsLogStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
const $watching = createStore<Watch>({ serial: null, sim: false });

$panelSerial
  .on(panelOpened, (_, serial) => serial)
  .on(panelDeviceSelected, (_, serial) => serial)
  .reset(panelClosed);
$section.reset(panelClosed).on(sectionSelected, (_, section) => section);
$collapsed.on(collapseToggled, (c) => !c).reset(panelClosed, panelOpened);

// Only the answer for the device shown now lands (a slow answer for the previous one is dropped).
const loaded = sample({
  clock: fetchPanelDeviceFx.done,
  source: $panelSerial,
  filter: (serial, { params }) => serial === params,
  fn: (_, { result }): Device => result,
});
// The answer and the writes' answers for the device shown go into the device store.
sample({ clock: loaded, target: deviceAnswered });
sample({
  clock: panelDeviceReplaced,
  source: $panelSerial,
  filter: (serial, device) => serial === device.serial,
  fn: (_, device): Device => device,
  target: deviceAnswered,
});
$panelStatus
  .on(fetchPanelDeviceFx, (status) => (status === 'ready' ? 'ready' : 'loading'))
  .on(loaded, () => 'ready')
  .on(fetchPanelDeviceFx.fail, (status, { error }) =>
    status === 'ready' ? status : error instanceof HttpError && error.status === 404 ? 'missing' : 'failed',
  )
  .on([panelOpened, panelDeviceSelected], () => 'loading')
  .reset(panelClosed);

// SIM log: one read when the SIM section opens, then appended rows from the push server.
const simLoaded = sample({
  clock: fetchSimLogFx.done,
  source: $panelSerial,
  filter: (serial, { params }) => serial === params,
  fn: (_, { result }) => result,
});
/** Appended rows of the device shown (a push for another serial, from a room being left, is ignored). */
const smsAppendedHere = sample({
  clock: smsLogAppendedReceived,
  source: $panelSerial,
  filter: (serial, { serial: s }) => serial === s,
  fn: (_, { rows }) => rows,
});
$smsLog
  .on(simLoaded, (_, rows) => rows)
  .on(smsAppendedHere, (rows, appended) => {
    if (!rows) return rows;
    // Rows already shown (the read and a push can overlap) are not repeated.
    const seen = new Set(rows.map(smsKey));
    const fresh = appended.filter((row) => !seen.has(smsKey(row)));
    return fresh.length ? [...fresh, ...rows] : rows;
  })
  .reset(panelClosed, panelDeviceSelected, panelOpened);
$smsLogStatus
  .on(fetchSimLogFx, () => 'loading')
  .on(simLoaded, () => 'ready')
  .on(fetchSimLogFx.fail, () => 'failed')
  .reset(panelClosed, panelDeviceSelected, panelOpened);
export const smsKey = (row: SimLogRow) => `${row.created_when}|${row.direction}|${row.message}`;

/**
 * Multi-select mode of the Device Subscription section (spec section 2): the right column's cards pick the
 * devices one plan is saved on. The current device is always in (it cannot be deselected); switching
 * device, section or closing leaves the mode.
 */
export const multiSelectToggled = createEvent();
export const multiSelectCardClicked = createEvent<string>();
export const $multiSelected = createStore<string[] | null>(null);
sample({
  clock: multiSelectToggled,
  source: { on: $multiSelected, serial: $panelSerial },
  fn: ({ on, serial }) => (on === null && serial ? [serial] : null),
  target: $multiSelected,
});
sample({
  clock: multiSelectCardClicked,
  source: { on: $multiSelected, serial: $panelSerial },
  filter: ({ on, serial }, clicked) => on !== null && clicked !== serial,
  fn: ({ on, serial }, clicked) => {
    const chosen = on as string[];
    const next = chosen.includes(clicked) ? chosen.filter((s) => s !== clicked) : [...chosen, clicked];
    return serial && !next.includes(serial) ? [serial, ...next] : next;
  },
  target: $multiSelected,
});
$multiSelected.reset(panelClosed, panelOpened, panelDeviceSelected, sectionSelected);

/**
 * The shown device's site: its devices are read for the right column by site (GET /api/v1/devicePage?site=,
 * every page of it), not from the whole device list, which at 100,000 devices is 117 MB (issue 46).
 */
const $groupSite = createStore<number | null>(null, { serialize: 'ignore' })
  // Kept while the next device loads: another device of the same site reads nothing again.
  .on($panelDevice.updates, (site, device) => (device ? device.location_group : site))
  .reset(panelClosed, devicesCleared);
export const fetchGroupFx = createApiFx(async (site: number): Promise<{ site: number; devices: Device[] }> => {
  const devices: Device[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: Device[]; nextCursor: string | null } = await call(devicesApi.page, {
      query: { site, limit: 500, ...(cursor ? { cursor } : {}) },
    });
    devices.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return { site, devices };
});
/** The site's devices as read, kept live by the same pushes as the device store (devicesPatched). */
const $groupRead = createStore<Record<string, Device>>({}, { serialize: 'ignore' })
  .on(
    sample({
      clock: fetchGroupFx.doneData,
      source: $groupSite,
      filter: (site, read) => site === read.site,
      fn: (_, read) => read,
    }),
    (_, { devices }) => normaliseDevices(devices),
  )
  .on(devicesPatched, applyDevicePatches)
  .reset(panelClosed, devicesCleared);
// The site's devices are kept live while the panel shows them.
keepLive(
  'device-panel-site',
  $groupRead.map((read) => Object.keys(read)),
);
sample({
  clock: $groupSite.updates,
  filter: (site): site is number => site !== null,
  target: fetchGroupFx,
});

/** The devices of the shown device's site group, by number (the right column). */
export const $groupDevices = combine($groupRead, $devices, $panelDevice, (read, listed, current): Device[] => {
  if (!current) return [];
  const shown = current as unknown as Device;
  // The device store's entry where a view read the list (one object for both, kept live alike), else the site's read.
  const group = Object.values(read)
    .filter((d) => d.location_group === current.location_group)
    .map((d) => listed[d.serial] ?? (d.serial === current.serial ? shown : d));
  if (!group.some((d) => d.serial === current.serial)) group.push(shown);
  return group.sort((a, b) => (a.number ?? 100) - (b.number ?? 100) || a.serial.localeCompare(b.serial));
});

// Loads; the device shown is the selected pin too (highlighted on the map behind). The panel's read is
// the only read of that device: an unknown serial asks nothing more after its 'Device not found'.
sample({ clock: [panelOpened, panelDeviceSelected], target: fetchPanelDeviceFx });
sample({ clock: [panelOpened, panelDeviceSelected], target: deviceSelected });
sample({
  clock: [sectionSelected, panelDeviceSelected],
  source: { serial: $panelSerial, section: $section },
  filter: ({ serial, section }) => serial !== null && section === 'sim',
  fn: ({ serial }) => serial as string,
  target: fetchSimLogFx,
});

// Subscriptions follow what is shown, once it is known to exist (a device not found is never watched).
// The serial of the device loaded (a string, so a push patching the device does not move anything).
const $loadedSerial = $panelDevice.map((d) => d?.serial ?? null);
const $wanted = combine($loadedSerial, $section, (serial, section): Watch => ({
  serial,
  sim: serial !== null && section === 'sim',
}));
sample({
  clock: $wanted,
  source: $watching,
  filter: (from, to) => from.serial !== to.serial || from.sim !== to.sim,
  fn: (from, to) => ({ from, to }),
  target: moveSubscriptionsFx,
});
// Taken at the start of a move: a second move while one is on its way starts from where the first goes.
$watching.on(moveSubscriptionsFx, (_, { to }) => to);
// After a reconnect the server forgot this socket's rooms: subscribe again and re-read.
sample({ clock: socketConnected, source: $watching, filter: (w) => w.serial !== null, target: resubscribeFx });
sample({
  clock: socketConnected,
  source: $panelSerial,
  filter: (serial, { reconnect }) => reconnect && serial !== null,
  fn: (serial) => serial as string,
  target: fetchPanelDeviceFx,
});
sample({
  clock: socketConnected,
  source: { serial: $panelSerial, section: $section },
  filter: ({ serial, section }, { reconnect }) => reconnect && serial !== null && section === 'sim',
  fn: ({ serial }) => serial as string,
  target: fetchSimLogFx,
});

/** The map screen is shown: read the address once (later changes arrive through $query). */
export const panelRouteRead = createEvent();
export const SECTION_QUERY = 'section';
const SECTIONS: readonly PanelSection[] = ['dashboard', 'management', 'subscription', 'sim', 'battery'];
const sectionOf = (query: URLSearchParams): PanelSection => {
  const s = query.get(SECTION_QUERY) as PanelSection | null;
  return s && SECTIONS.includes(s) ? s : 'dashboard';
};

/**
 * The address follows the panel: `/?device=<serial>&section=<section>` (the section left out for the
 * dashboard). Each device, section, opening or closing is a history entry, so back and forward walk
 * through them; the address read back drives the panel the same way. A change the address itself made
 * leaves the state equal to the address, so it pushes nothing (no loop).
 */
export function panelSearch(search: string, serial: string | null, section: PanelSection): string {
  const params = new URLSearchParams(search);
  if (serial) params.set(DEVICE_QUERY, serial);
  else params.delete(DEVICE_QUERY);
  if (serial && section !== 'dashboard') params.set(SECTION_QUERY, section);
  else params.delete(SECTION_QUERY);
  const out = params.toString();
  return out ? `?${out}` : '';
}
// Only what the browser says (the first read, back and forward): the panel's own pushes are not read back,
// so a push still on its way can never undo a later click.
const addressRead = sample({
  clock: [locationSynced.map((l) => new URLSearchParams(l.search)), sample({ clock: panelRouteRead, source: $query })],
});
const onMapScreen = (pathname: string) => pathname === ROUTES.home;
// Open a device named by the address, or switch to it when the panel shows another one.
sample({
  clock: addressRead,
  source: { open: $panelSerial, pathname: $pathname },
  filter: ({ open, pathname }, query) => onMapScreen(pathname) && !!query.get(DEVICE_QUERY) && open === null,
  fn: (_, query) => query.get(DEVICE_QUERY) as string,
  target: panelOpened,
});
sample({
  clock: addressRead,
  source: { open: $panelSerial, pathname: $pathname },
  filter: ({ open, pathname }, query) =>
    onMapScreen(pathname) && !!query.get(DEVICE_QUERY) && open !== null && open !== query.get(DEVICE_QUERY),
  fn: (_, query) => query.get(DEVICE_QUERY) as string,
  target: panelDeviceSelected,
});
sample({
  clock: addressRead,
  source: { open: $panelSerial, section: $section, pathname: $pathname },
  filter: ({ section, pathname }, query) => onMapScreen(pathname) && !!query.get(DEVICE_QUERY) && sectionOf(query) !== section,
  fn: (_, query) => sectionOf(query),
  target: sectionSelected,
});
// Back to an address without a device closes the panel.
sample({
  clock: addressRead,
  source: { open: $panelSerial, pathname: $pathname },
  filter: ({ open, pathname }, query) => onMapScreen(pathname) && open !== null && !query.get(DEVICE_QUERY),
  fn: () => undefined,
  target: panelClosed,
});
// And the panel writes the address.
sample({
  clock: combine($panelSerial, $section, (serial, section) => ({ serial, section })),
  source: $location,
  filter: (location, { serial, section }) =>
    onMapScreen(location.pathname) &&
    panelSearch(location.search, serial, section) !== (location.search === '?' ? '' : location.search),
  fn: (location, { serial, section }) => ({ to: `${location.pathname}${panelSearch(location.search, serial, section)}` }),
  target: navigated,
});

// EDIT DEVICE saved or deleted the device shown: show the saved values at once, or close the panel.
sample({
  clock: deviceSaved,
  source: $panelSerial,
  filter: (serial, device) => serial === device.serial,
  fn: (_, device) => device,
  target: panelDeviceReplaced,
});
sample({
  clock: deviceDeleted,
  source: $panelSerial,
  filter: (serial, deleted) => serial === deleted,
  fn: () => undefined,
  target: panelClosed,
});
