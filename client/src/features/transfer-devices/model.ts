import { plural, pluralWord, brandsApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $brands, brandsRequested } from '../../entities/brand';
import { $devices, deviceListNeeded, devicesRequested, type Device } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * 'Add Device To {brand}' (spec sections 2, 5, 7): the fleet's devices of other brands in a table (Site/Event
 * Name, Address, District, Brand, S/N) with District, Address and Brand filters and a detail card; Select
 * All, Transfer (POST assignBrandToDevice; at least one device selected) and the inert Remove Device.
 */
export type TransferFilters = { district: number | null; address: string | null; brand: number | 'none' | null };
export const NO_FILTERS: TransferFilters = { district: null, address: null, brand: null };
export const TRANSFER_TEXT = {
  done: 'DEVICES TRANSFERRED',
  failed: 'FAIL TO TRANSFER DEVICES',
  needOne: 'Select at least one device.',
} as const;

/** Devices that could join the brand (not already its own), filtered. */
export function transferRows(devices: readonly Device[], brandId: number, f: TransferFilters): Device[] {
  return devices.filter(
    (d) =>
      d.brand !== brandId &&
      (f.district === null || d.location_id === f.district) &&
      (f.address === null || d.address === f.address) &&
      (f.brand === null || (f.brand === 'none' ? d.brand === null : d.brand === f.brand)),
  );
}

/** Select All: every row shown; when all are already selected, it clears them. */
export function selectAll(selected: ReadonlySet<string>, rows: readonly { serial: string }[]): Set<string> {
  const all = rows.length > 0 && rows.every((r) => selected.has(r.serial));
  const next = new Set(selected);
  for (const r of rows) {
    if (all) next.delete(r.serial);
    else next.add(r.serial);
  }
  return next;
}

export const assignDevicesFx = createApiFx(({ brandId, deviceSerials }: { brandId: number; deviceSerials: string[] }) =>
  call(brandsApi.assignDevices, { body: { brandId, deviceSerials } }),
);

export const transferOpened = createEvent<number>();
export const transferClosed = createEvent();
export const transferFilterChanged = createEvent<Partial<TransferFilters>>();
export const deviceToggled = createEvent<string>();
export const deviceShown = createEvent<string>();
export const selectAllClicked = createEvent();
export const transferClicked = createEvent();

export const transferResult = createResultPopup({ ms: 1500, resetOn: [sessionEnded] });

export const $transferBrandId = createStore<number | null>(null)
  .on(transferOpened, (_, id) => id)
  .reset(transferClosed, assignDevicesFx.done, sessionEnded);
export const $transferBrand = combine($brands, $transferBrandId, (brands, id) =>
  id === null ? null : (brands.find((b) => b.id === id) ?? null),
);
export const $transferFilters = createStore<TransferFilters>(NO_FILTERS)
  .on(transferFilterChanged, (f, change) => ({ ...f, ...change }))
  .reset(transferOpened, sessionEnded);
export const $selectedSerials = createStore<ReadonlySet<string>>(new Set(), { serialize: 'ignore' })
  .on(deviceToggled, (set, serial) => {
    const next = new Set(set);
    if (!next.delete(serial)) next.add(serial);
    return next;
  })
  .reset(transferOpened, sessionEnded);
export const $shownSerial = createStore<string | null>(null)
  .on(deviceShown, (_, serial) => serial)
  .on(deviceToggled, (_, serial) => serial)
  .reset(transferOpened, sessionEnded);

const $allDevices = $devices.map((devices) => Object.values(devices));
export const $transferRows = combine($allDevices, $transferBrandId, $transferFilters, (devices, id, f) =>
  id === null ? [] : transferRows(devices, id, f),
);
/** Filter choices come from the devices that could join (whatever the other filters say). */
export const $transferOptions = combine($allDevices, $transferBrandId, (devices, id) => {
  const candidates = id === null ? [] : transferRows(devices, id, NO_FILTERS);
  return {
    addresses: [...new Set(candidates.map((d) => d.address).filter(Boolean))].sort(),
    brands: [
      ...new Map(candidates.filter((d) => d.brand !== null).map((d) => [d.brand!, d.brand_name ?? `Brand ${d.brand}`])).entries(),
    ].sort((a, b) => a[1].localeCompare(b[1])),
    districts: [...new Set(candidates.map((d) => d.location_id).filter((x): x is number => x !== null))],
  };
});
export const $shownDevice = combine($devices, $shownSerial, (devices, serial) => (serial ? (devices[serial] ?? null) : null));

$selectedSerials.on(
  sample({
    clock: selectAllClicked,
    source: { selected: $selectedSerials, rows: $transferRows },
    fn: ({ selected, rows }) => selectAll(selected, rows),
  }),
  (_, next) => next,
);

// Transfer needs at least one selected device (spec section 5).
sample({
  clock: transferClicked,
  source: { id: $transferBrandId, selected: $selectedSerials, pending: assignDevicesFx.pending },
  filter: ({ id, selected, pending }) => id !== null && selected.size > 0 && !pending,
  fn: ({ id, selected }) => ({ brandId: id!, deviceSerials: [...selected] }),
  target: assignDevicesFx,
});

sample({ clock: assignDevicesFx.done, fn: () => undefined, target: [devicesRequested, brandsRequested] });
sample({
  clock: assignDevicesFx.done,
  fn: ({ params, result }) => ({
    tone: 'success' as const,
    title: TRANSFER_TEXT.done,
    message: `${plural(params.deviceSerials.length, 'device')} now ${pluralWord(params.deviceSerials.length, 'belongs', 'belong')} to ${result.name}.`,
  }),
  target: transferResult.shown,
});
sample({
  clock: assignDevicesFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: TRANSFER_TEXT.failed, message: serverReason(e) }),
  target: transferResult.shown,
});
// The full device answers are read only once a view shows them (the map draws from the compact pin feed).
sample({ clock: transferOpened, fn: () => undefined, target: deviceListNeeded });
