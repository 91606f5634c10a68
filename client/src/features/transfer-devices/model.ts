import {
  brandsApi,
  clearAllPicks,
  isPicked,
  localPicks,
  picksOf,
  plural,
  pluralWord,
  selectAllPicks,
  selectionOfPicks,
  selectionsApi,
  togglePick,
  type DeviceFilterInput,
  type DeviceSelectionInput,
  type Picks,
} from '@fleet/shared';
import { attach, combine, createEvent, createStore, sample } from 'effector';
import { $brands, brandsRequested } from '../../entities/brand';
import { $countyNames } from '../../entities/county';
import {
  createDevicePageList,
  createPicksCount,
  devicesRequested,
  type Device,
  type PicksSelection,
} from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * 'Add Device To {brand}' (spec sections 2, 5, 7): the fleet's devices of other brands in a table (Site/Event
 * Name, Address, District, Brand, S/N) with District, Address and Brand filters and a detail card; Select
 * All, Transfer (POST assignBrandToDevice; at least one device selected) and the inert Remove Device.
 *
 * The rows are read from the server a page at a time (GET /api/v1/devicePage with the dialog's filters as
 * notBrand / county / address / brand / noBrand, issue 46): the dialog never reads the whole fleet. Select All
 * is one filter step the server resolves (POST /api/v1/assignBrandToSelection), whatever the rows read so far.
 */
export type TransferFilters = { district: number | null; address: string | null; brand: number | 'none' | null };
export const NO_FILTERS: TransferFilters = { district: null, address: null, brand: null };
export const TRANSFER_TEXT = {
  done: 'DEVICES TRANSFERRED',
  failed: 'FAIL TO TRANSFER DEVICES',
  needOne: 'Select at least one device.',
} as const;

/**
 * The dialog's filters as devicePage's query, which is also a selection filter (shared device-selection.schema):
 * the devices that could join (not already the brand's), narrowed.
 */
export function transferFilter(brandId: number, f: TransferFilters): DeviceFilterInput {
  return {
    notBrand: brandId,
    ...(f.district !== null ? { county: f.district } : {}),
    ...(f.address !== null ? { address: f.address } : {}),
    ...(f.brand === 'none' ? { noBrand: true as const } : f.brand !== null ? { brand: f.brand } : {}),
  };
}

/** Select All: every device the filters match, as one step; when every row shown is picked already, it clears them. */
export function selectAll(picks: Picks, rows: readonly Device[], filter: DeviceFilterInput): Picks {
  const all = rows.length > 0 && rows.every((r) => isPicked(picks, r));
  return all ? clearAllPicks(picks, filter) : selectAllPicks(picks, filter);
}

export const assignDevicesFx = createApiFx(({ brandId, deviceSerials }: { brandId: number; deviceSerials: string[] }) =>
  call(brandsApi.assignDevices, { body: { brandId, deviceSerials } }),
);
/** The filter form (issue 46): a Select All moves every device it matches in one server transaction. */
export const assignSelectionFx = createApiFx(({ brandId, selection }: { brandId: number; selection: DeviceSelectionInput }) =>
  call(selectionsApi.assignBrand, { body: { brandId, selection } }),
);
/** How many devices the picks hold (the server counts a Select All's filter within the caller's scope). */
export const countPicksFx = createApiFx((selection: DeviceSelectionInput) =>
  call(selectionsApi.resolve, { body: { selection, limit: 0 } }),
);

export const transferOpened = createEvent<number>();
export const transferClosed = createEvent();
export const transferFilterChanged = createEvent<Partial<TransferFilters>>();
export const deviceToggled = createEvent<string>();
export const deviceShown = createEvent<string>();
export const selectAllClicked = createEvent();
export const transferClicked = createEvent();

/** The view scrolled near the last row read: the next page. */
export const moreRowsRequested = createEvent();

export const transferResult = createResultPopup({ ms: 1500, resetOn: [sessionEnded] });

export const $transferBrandId = createStore<number | null>(null)
  .on(transferOpened, (_, id) => id)
  .reset(transferClosed, assignDevicesFx.done, assignSelectionFx.done, sessionEnded);
export const $transferBrand = combine($brands, $transferBrandId, (brands, id) =>
  id === null ? null : (brands.find((b) => b.id === id) ?? null),
);
export const $transferFilters = createStore<TransferFilters>(NO_FILTERS)
  .on(transferFilterChanged, (f, change) => ({ ...f, ...change }))
  .reset(transferOpened, sessionEnded);
/** The devices that could join the brand, narrowed by the filters: pages read from the server (none while closed). */
export const transferPages = createDevicePageList();
export const $transferRows = transferPages.$items;
export const $transferStatus = transferPages.$status;

/** The picks (shared device-selection rules): a Select All is one filter step, never the serials of every row. */
export const $picks = createStore<Picks>(picksOf([]), { serialize: 'ignore' })
  .on(
    sample({ clock: deviceToggled, source: $transferRows, fn: (rows, serial) => ({ rows, serial }) }),
    (picks, { rows, serial }) => togglePick(picks, rows.find((d) => d.serial === serial) ?? { serial }),
  )
  .reset(transferOpened, sessionEnded);
/** Devices picked: the browser's count when it knows the serials, else the server's for these picks (null: asking). */
export const $selectedCount = createPicksCount({
  picks: $picks,
  // The picks' selection is one form of the call's input.
  countFx: attach({ effect: countPicksFx, mapParams: (selection: PicksSelection) => selection }),
  when: $transferBrandId.map((id) => id !== null),
  reset: [transferOpened, sessionEnded],
});
/** The device of the detail card, as its row was when chosen (it stays shown when a filter hides its row). */
const $shownHeld = createStore<Device | null>(null, { serialize: 'ignore' })
  .on(
    sample({ clock: [deviceShown, deviceToggled], source: $transferRows, fn: (rows, serial) => ({ rows, serial }) }),
    (held, { rows, serial }) => rows.find((d) => d.serial === serial) ?? held,
  )
  .reset(transferOpened, sessionEnded);
/** The detail card's device, live while its row is read (pushes patch the rows). */
export const $shownDevice = combine(
  $transferRows,
  $shownHeld,
  (rows, held) => (held && rows.find((d) => d.serial === held.serial)) ?? held,
);

/**
 * Addresses of the rows read since the dialog opened. The dialog no longer holds the fleet, so its Address
 * choices are those it has seen: choosing a District or Brand first (or scrolling) reads that part's
 * addresses. The address chosen stays a choice while its rows are shown.
 */
const $seenAddresses = createStore<readonly string[]>([], { serialize: 'ignore' })
  .on(transferPages.$items, (seen, rows) => {
    const fresh = [...new Set(rows.map((d) => d.address).filter((a) => a && !seen.includes(a)))];
    return fresh.length ? [...seen, ...fresh] : seen;
  })
  .reset(transferOpened, sessionEnded);
/**
 * The filters' choices: every District (county) and every other brand, which the server narrows by, and the
 * addresses seen (above).
 */
export const $transferOptions = combine(
  $seenAddresses,
  $brands,
  $countyNames,
  $transferBrandId,
  (addresses, brands, counties, id) => ({
    addresses: [...addresses].sort(),
    brands: brands
      .filter((b) => b.id !== id)
      .map((b): [number, string] => [b.id, b.name])
      .sort((a, b) => a[1].localeCompare(b[1])),
    districts: [...counties.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([countyId]) => countyId),
  }),
);

// The rows: the first page of the filters at once (opening, each filter chosen), more as the table scrolls.
sample({
  clock: [transferOpened, transferFilterChanged],
  source: { id: $transferBrandId, filters: $transferFilters },
  filter: ({ id }) => id !== null,
  fn: ({ id, filters }) => transferFilter(id!, filters),
  target: transferPages.opened,
});
sample({ clock: moreRowsRequested, target: transferPages.moreRequested });
sample({ clock: [transferClosed, assignDevicesFx.done, assignSelectionFx.done, sessionEnded], target: transferPages.closed });

sample({
  clock: selectAllClicked,
  source: { picks: $picks, rows: $transferRows, id: $transferBrandId, filters: $transferFilters },
  filter: ({ id }) => id !== null,
  fn: ({ picks, rows, id, filters }) => selectAll(picks, rows, transferFilter(id!, filters)),
  target: $picks,
});

// Transfer needs at least one selected device (spec section 5). Picked rows only: the spec's call with their
// serials, as before; a Select All among the picks: the filter form, one transaction on the server.
export const $transferPending = combine(assignDevicesFx.pending, assignSelectionFx.pending, (a, b) => a || b);
const transferAttempt = sample({
  clock: transferClicked,
  source: { id: $transferBrandId, picks: $picks, count: $selectedCount, pending: $transferPending },
  filter: ({ id, count, pending }) => id !== null && count !== null && count > 0 && !pending,
});
sample({
  clock: transferAttempt,
  filter: ({ picks }) => localPicks(picks) !== null,
  fn: ({ id, picks }) => ({ brandId: id!, deviceSerials: localPicks(picks)! }),
  target: assignDevicesFx,
});
sample({
  clock: transferAttempt,
  filter: ({ picks }) => localPicks(picks) === null,
  fn: ({ id, picks }) => ({ brandId: id!, selection: selectionOfPicks(picks) }),
  target: assignSelectionFx,
});

const transferred = sample({
  clock: [
    assignDevicesFx.done.map(({ params, result }) => ({ count: params.deviceSerials.length, name: result.name })),
    assignSelectionFx.doneData.map((result) => ({ count: result.transferred, name: result.name })),
  ],
});
sample({ clock: transferred, fn: () => undefined, target: [devicesRequested, brandsRequested] });
sample({
  clock: transferred,
  fn: ({ count, name }) => ({
    tone: 'success' as const,
    title: TRANSFER_TEXT.done,
    message: `${plural(count, 'device')} now ${pluralWord(count, 'belongs', 'belong')} to ${name}.`,
  }),
  target: transferResult.shown,
});
sample({
  clock: [assignDevicesFx.failData, assignSelectionFx.failData],
  fn: (e) => ({ tone: 'danger' as const, title: TRANSFER_TEXT.failed, message: serverReason(e) }),
  target: transferResult.shown,
});
