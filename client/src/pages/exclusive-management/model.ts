import { plural, pluralWord, partnersApi } from '@fleet/shared';
import type { PartnerUser } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $devices, $devicesStatus, deviceListNeeded } from '../../entities/device';
import { $accessLevel } from '../../entities/session';
import { call, createApiFx, failureMessage, fieldMessages } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';
import { partnerCompanies, pickerMatches, type PickerDevice } from './lib/partners';

/**
 * /exclusive-management (spec section 2; distributors only, section 6): market-partner companies, their
 * users and each user's exclusive devices, which a distributor assigns and removes. The server scopes a
 * partner to exactly these devices over REST and sockets, so what this page saves is what the partner sees.
 */
export const pageMounted = createEvent();
export const retryClicked = createEvent();
export const companySearched = createEvent<string>();
export const companySelected = createEvent<string>();
export const pickerOpened = createEvent<string>();
export const pickerClosed = createEvent();
export const pickerSearched = createEvent<string>();
export const pickerToggled = createEvent<string>();
export const pickerSubmitted = createEvent();
export const removeRequested = createEvent<{ email: string; serial: string }>();
export const removeCancelled = createEvent();
export const removeConfirmed = createEvent();

export const fetchUsersFx = createApiFx<void, PartnerUser[]>(() => call(partnersApi.allUser));
export const addDevicesFx = createApiFx<{ email: string; serials: string[] }, PartnerUser>(({ email, serials }) =>
  call(partnersApi.addExclusiveDevices, { params: { email }, body: { deviceSerials: serials } }),
);
export const removeDevicesFx = createApiFx<{ email: string; serial: string }, PartnerUser>(({ email, serial }) =>
  call(partnersApi.removeExclusiveDevices, { params: { email }, body: { deviceSerials: [serial] } }),
);

export const $isDistributor = $accessLevel.map((level) => level === 'distributor');
export const $users = createStore<PartnerUser[]>([]);
export type PageStatus = 'idle' | 'loading' | 'ready' | 'failed';
export const $status = createStore<PageStatus>('idle');
export const $companySearch = createStore('');
export const $selectedKey = createStore<string | null>(null);

export const $companies = $users.map(partnerCompanies);
export const $visibleCompanies = combine($companies, $companySearch, (companies, q) => {
  const query = q.trim().toLowerCase();
  return query ? companies.filter((c) => c.name.toLowerCase().includes(query)) : companies;
});
/** The company shown on the right: the one chosen, else the first listed. */
export const $selectedCompany = combine(
  $visibleCompanies,
  $selectedKey,
  (list, key) => list.find((c) => c.key === key) ?? list[0] ?? null,
);

/** Every device the distributor sees, as the picker and the exclusive lists show it. */
export const $deviceIndex = $devices.map((record) => {
  const index = new Map<string, PickerDevice>();
  for (const d of Object.values(record))
    index.set(d.serial, { serial: d.serial, label: String(d.label ?? ''), address: String(d.address ?? '') });
  return index;
});

export const $pickerEmail = createStore<string | null>(null);
export const $pickerQuery = createStore('');
export const $pickerChosen = createStore<string[]>([]);
export const $pickerError = createStore<string | null>(null);
export const $pickerPending = addDevicesFx.pending;
export const $pickerUser = combine($users, $pickerEmail, (users, email) => users.find((u) => u.email === email) ?? null);
/** At most this many rows in the picker: more would be a list nobody reads; the search narrows it. */
export const PICKER_ROWS = 150;
export const $pickerMatches = combine($deviceIndex, $pickerQuery, $pickerUser, (index, q, user) =>
  pickerMatches([...index.values()], q, new Set(user?.exclusive_device_serials ?? [])),
);

export const $removing = createStore<{ email: string; serial: string } | null>(null);
export const $removePending = removeDevicesFx.pending;
export const resultPopup = createResultPopup({ ms: 1500 });

// Loading: distributors only; the device list is the app's (loaded once after sign-in, kept live by pushes).
sample({ clock: [pageMounted, retryClicked], filter: $isDistributor, target: fetchUsersFx });
sample({
  clock: [pageMounted, retryClicked],
  source: $devicesStatus,
  filter: (s, _) => s === 'idle' || s === 'failed',
  fn: () => undefined,
  target: deviceListNeeded,
});
$users.on(fetchUsersFx.doneData, (_, list) => list);
$status
  .on(fetchUsersFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchUsersFx.done, () => 'ready')
  .on(fetchUsersFx.fail, () => 'failed');

$companySearch.on(companySearched, (_, q) => q);
$selectedKey.on(companySelected, (_, key) => key);

// A write answers the user as it now is: it replaces that user in the list.
const replaceUser = (users: PartnerUser[], next: PartnerUser) => users.map((u) => (u.id === next.id ? next : u));
$users.on(addDevicesFx.doneData, replaceUser).on(removeDevicesFx.doneData, replaceUser);

// The device picker.
$pickerEmail.on(pickerOpened, (_, email) => email).reset(pickerClosed, addDevicesFx.done);
$pickerQuery.on(pickerSearched, (_, q) => q).reset(pickerOpened);
$pickerChosen
  .on(pickerToggled, (list, serial) => (list.includes(serial) ? list.filter((s) => s !== serial) : [...list, serial]))
  .reset(pickerOpened, pickerClosed, addDevicesFx.done);
$pickerError
  .on(addDevicesFx.failData, (_, e) => Object.values(fieldMessages(e))[0] ?? failureMessage(e))
  .reset(pickerOpened, pickerClosed, addDevicesFx);
sample({
  clock: pickerSubmitted,
  source: { email: $pickerEmail, serials: $pickerChosen },
  filter: (s): s is { email: string; serials: string[] } => s.email !== null && s.serials.length > 0,
  target: addDevicesFx,
});
sample({
  clock: addDevicesFx.done,
  fn: ({ params }) => ({
    tone: 'success' as const,
    title: 'DEVICES ADDED',
    message: `${plural(params.serials.length, 'device')} ${pluralWord(params.serials.length, 'is', 'are')} now exclusive to ${params.email}.`,
  }),
  target: resultPopup.shown,
});

// Removing one device, after a confirmation.
$removing.on(removeRequested, (_, r) => r).reset(removeCancelled, removeDevicesFx.finally);
sample({
  clock: removeConfirmed,
  source: $removing,
  filter: (r): r is { email: string; serial: string } => r !== null,
  target: removeDevicesFx,
});
sample({
  clock: removeDevicesFx.done,
  fn: ({ params }) => ({
    tone: 'success' as const,
    title: 'DEVICE REMOVED',
    message: `${params.email} no longer sees ${params.serial}.`,
  }),
  target: resultPopup.shown,
});
sample({
  clock: removeDevicesFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: 'FAIL TO REMOVE DEVICE', message: failureMessage(e) }),
  target: resultPopup.shown,
});
