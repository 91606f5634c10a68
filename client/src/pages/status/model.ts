import { batchesApi, devicesApi, sitesApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $countyNames } from '../../entities/county';
import { deviceAnswered, devicesCleared, devicesPatched, keepLive, type DevicePatch } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { $live } from '../../features/live-devices';
import { call, createApiFx } from '../../shared/api';
import { $connected } from '../../shared/realtime';
import { rowCache, statusFieldsOf, statusReport, type BatchInfo, type Site, type StatusDevice } from './lib/status-report';

/**
 * /status: the caller's fleet as a printable report. The page reads its devices itself, from
 * GET /api/v1/devicePage a page of STATUS_PAGE at a time (issue 46: never the whole GET /api/v1/device
 * answer nor the app's device map), keeps only the fields the report shows of each (STATUS_FIELDS), and
 * patches them with the same device pushes as the map (no polling here). It reads the sites once (their
 * time zones) and the batches once (their states).
 */
export const statusPageMounted = createEvent();
/** The page closed: its devices' pushes are no longer needed (they are read again on the next visit). */
export const statusPageLeft = createEvent();
export const retryClicked = createEvent();

export const fetchSitesFx = createApiFx((): Promise<Site[]> => call(sitesApi.deviceGroups));
export const fetchBatchesFx = createApiFx(() => call(batchesApi.list));

/** Devices a read: 500 list answers are about 550 kB of JSON. */
export const STATUS_PAGE = 500;
export const fetchStatusPageFx = createApiFx((cursor: string | null) =>
  call(devicesApi.page, { query: { limit: STATUS_PAGE, ...(cursor ? { cursor } : {}) } }),
);
/** The report's devices by serial, in the order read (device id). */
export const $statusDevices = createStore<Readonly<Record<string, StatusDevice>>>({}, { serialize: 'ignore' });
export const $status = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
/** Devices in the caller's scope, as the server counts them (the first page says). */
export const $statusTotal = createStore<number | null>(null);

export const $sites = createStore<ReadonlyMap<number, Site>>(new Map())
  .on(fetchSitesFx.doneData, (_, list) => new Map(list.map((s) => [s.id, s])))
  .reset(sessionEnded);
export const $batches = createStore<ReadonlyMap<string, BatchInfo>>(new Map())
  .on(
    fetchBatchesFx.doneData,
    (_, list) =>
      new Map(list.map((b) => [b.batchNumber, { batchNumber: b.batchNumber, status: b.status, is_recalled: b.is_recalled }])),
  )
  .reset(sessionEnded);
export const $extrasFailed = createStore(false)
  .on([fetchSitesFx.fail, fetchBatchesFx.fail], () => true)
  .reset(statusPageMounted, retryClicked, sessionEnded);
export { $countyNames };
const rowOf = rowCache();
/** The report is built only in the tab that shows /status: the map tab loads this module too, and must not pay for it on every push. */
const $shown = createStore(false)
  .on(statusPageMounted, () => true)
  .reset(sessionEnded);
export const $report = combine($shown, $statusDevices, $countyNames, $sites, $batches, (shown, devices, names, sites, batches) =>
  statusReport(shown ? Object.values(devices) : [], names, sites, batches, rowOf),
);
/** Pushes arrive: the socket is up and the device subscriptions are live. */
export const $isLive = combine($connected, $live, (connected, live) => connected && live);

sample({ clock: [statusPageMounted, retryClicked], fn: () => undefined, target: [fetchSitesFx, fetchBatchesFx] });

// The devices: page after page from the first, each page's fields narrowed as it arrives.
const firstRead = sample({ clock: statusPageMounted, source: $status, filter: (status) => status !== 'loading' });
$statusDevices.reset(firstRead, sessionEnded, devicesCleared);
$statusTotal.reset(firstRead, sessionEnded, devicesCleared);
$status
  .on(firstRead, () => 'loading')
  .on(fetchStatusPageFx.fail, () => 'failed')
  .reset(sessionEnded, devicesCleared);
sample({ clock: firstRead, fn: () => null, target: fetchStatusPageFx });
$statusDevices.on(fetchStatusPageFx.doneData, (held, page) => {
  const next = { ...held };
  for (const item of page.items) next[item.serial] = statusFieldsOf(item) as StatusDevice;
  return next;
});
$statusTotal.on(fetchStatusPageFx.doneData, (_, page) => page.total);
// The report's devices are kept live while the page is open: their pushes are subscribed (features/live-devices).
const $liveHeld = createStore<readonly string[]>([], { serialize: 'ignore' })
  .on(fetchStatusPageFx.doneData, (held, page) => [...held, ...page.items.map((d) => d.serial)])
  .reset(firstRead, statusPageLeft, sessionEnded, devicesCleared);
keepLive('status', $liveHeld);
sample({
  clock: fetchStatusPageFx.doneData,
  filter: (page) => page.nextCursor !== null,
  fn: (page) => page.nextCursor,
  target: fetchStatusPageFx,
});
$status.on(fetchStatusPageFx.doneData, (status, page) => (page.nextCursor === null ? 'ready' : status));

/** Pushed changes and write answers patch the devices held (a device not read yet comes with its page). */
function patchHeld(held: Readonly<Record<string, StatusDevice>>, patches: Record<string, DevicePatch>) {
  let next: Record<string, StatusDevice> | null = null;
  for (const serial in patches) {
    const device = held[serial];
    if (!device) continue;
    const fields = statusFieldsOf(patches[serial]!);
    if (!Object.keys(fields).length) continue;
    next ??= { ...held };
    next[serial] = { ...device, ...fields, serial };
  }
  return next ?? held;
}
$statusDevices.on(devicesPatched, patchHeld).on(deviceAnswered, (held, device) => patchHeld(held, { [device.serial]: device }));
