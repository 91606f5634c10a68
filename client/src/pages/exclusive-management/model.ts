import { devicesApi, plural, pluralWord, partnersApi } from '@fleet/shared';
import type { PartnerUser } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { createDevicePageList, type Device } from '../../entities/device';
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
/** The picker's list scrolled near its last row: the next page. */
export const pickerScrolledToEnd = createEvent();
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

/** A device as the picker and the exclusive lists show it. */
const pickerDevice = (d: Pick<Device, 'serial' | 'label' | 'address'>): PickerDevice => ({
  serial: d.serial,
  label: String(d.label ?? ''),
  address: String(d.address ?? ''),
});
/** Serials a GET /api/v1/device?serials= call names at most. */
const SERIALS_A_CALL = 500;
/**
 * The named devices' names and addresses (GET /api/v1/device?serials=, SERIALS_A_CALL at a time): the rows of
 * the users shown. A serial not answered is not placed. Never the whole list (issue 46).
 */
export const fetchNamedDevicesFx = createApiFx<readonly string[], PickerDevice[]>(async (serials) => {
  const calls: Promise<Device[]>[] = [];
  for (let at = 0; at < serials.length; at += SERIALS_A_CALL)
    calls.push(
      call(devicesApi.list, { query: { serials: serials.slice(at, at + SERIALS_A_CALL).join(',') } }) as Promise<Device[]>,
    );
  return (await Promise.all(calls)).flat().map(pickerDevice);
});

/** The devices whose names and addresses the page knows (the exclusive lists shown, the picker's rows), by serial. */
export const $deviceIndex = createStore<ReadonlyMap<string, PickerDevice>>(new Map(), { serialize: 'ignore' });
/** Serials asked for already (a serial not placed is not in the index, and is not asked for again). */
const $askedSerials = createStore<ReadonlySet<string>>(new Set(), { serialize: 'ignore' });

export const $pickerEmail = createStore<string | null>(null);
export const $pickerQuery = createStore('');
export const $pickerChosen = createStore<string[]>([]);
export const $pickerError = createStore<string | null>(null);
export const $pickerPending = addDevicesFx.pending;
export const $pickerUser = combine($users, $pickerEmail, (users, email) => users.find((u) => u.email === email) ?? null);
/** Rows a picker read asks for: more would be a list nobody reads; the search narrows it, scrolling reads more. */
export const PICKER_ROWS = 150;
/** The picker's devices: the server's pages of its search (devicePage `search`: name, serial or address). */
export const pickerPages = createDevicePageList({ limit: PICKER_ROWS });
const $pickerMine = $pickerUser.map((user) => new Set(user?.exclusive_device_serials ?? []));
/** The rows read, less the devices the user has already. */
export const $pickerMatches = combine(pickerPages.$items, $pickerMine, (items, mine) =>
  items.filter((d) => !mine.has(d.serial)).map(pickerDevice),
);
/**
 * Devices the search matches that the user does not have: the server's count less the user's own that match
 * (the user's devices are in the index, read for its list; the same shared rule as the server's).
 */
export const $pickerTotal = combine(pickerPages.$total, $pickerMine, $deviceIndex, $pickerQuery, (total, mine, index, q) =>
  total === null
    ? null
    : total -
      pickerMatches(
        [...mine].flatMap((serial) => index.get(serial) ?? []),
        q,
        new Set(),
      ).length,
);
export const $pickerLoading = pickerPages.$status.map((status) => status === 'loading');

export const $removing = createStore<{ email: string; serial: string } | null>(null);
export const $removePending = removeDevicesFx.pending;
export const resultPopup = createResultPopup({ ms: 1500 });

// Loading: distributors only. The devices are read for what is shown: the rows of the company shown, the
// picker's pages; never the whole list (issue 46).
sample({ clock: [pageMounted, retryClicked], filter: $isDistributor, target: fetchUsersFx });
const unknownShown = sample({
  clock: $selectedCompany,
  source: { asked: $askedSerials, index: $deviceIndex },
  fn: ({ asked, index }, company) =>
    [...new Set(company?.users.flatMap((u) => u.exclusive_device_serials) ?? [])].filter(
      (serial) => !asked.has(serial) && !index.has(serial),
    ),
});
sample({ clock: unknownShown, filter: (serials) => serials.length > 0, target: fetchNamedDevicesFx });
$askedSerials
  .on(fetchNamedDevicesFx, (asked, serials) => new Set([...asked, ...serials]))
  // A failed read is asked for again the next time its company is shown.
  .on(fetchNamedDevicesFx.fail, (asked, { params }) => new Set([...asked].filter((serial) => !params.includes(serial))));
const withDevices = (index: ReadonlyMap<string, PickerDevice>, devices: readonly PickerDevice[]) =>
  devices.length ? new Map([...index, ...devices.map((d): [string, PickerDevice] => [d.serial, d])]) : index;
$deviceIndex
  .on(fetchNamedDevicesFx.doneData, withDevices)
  // The picker's rows too: a device just added shows its name at once.
  .on(pickerPages.$items, (index, items) => withDevices(index, items.map(pickerDevice)));
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
sample({ clock: pickerOpened, fn: () => ({}), target: pickerPages.opened });
sample({ clock: pickerSearched, fn: (q) => (q.trim() ? { search: q } : {}), target: pickerPages.filterTyped });
sample({ clock: pickerScrolledToEnd, target: pickerPages.moreRequested });
sample({ clock: [pickerClosed, addDevicesFx.done], target: pickerPages.closed });
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
