import { batchesApi, devicesApi, sitesApi, type StatusCountsByCounty } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $countyNames } from '../../entities/county';
import { deviceAnswered, devicesCleared, devicesPatched, keepLive, type DevicePatch } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { $live } from '../../features/live-devices';
import { call, createApiFx } from '../../shared/api';
import { $connected } from '../../shared/realtime';
import {
  byCountyReport,
  rowCache,
  statusFieldsOf,
  statusReport,
  type BatchInfo,
  type Site,
  type StatusDevice,
} from './lib/status-report';

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
/**
 * Above this many devices the report lists its counties with the server's counts, and reads a county's
 * devices when it is opened (issue 46: 100,000 rows, read 500 at a time and drawn in one table, are not a
 * report anyone reads, and held whole they cost the browser every device's fields and pushes).
 */
export const STATUS_LIST_LIMIT = 2_000;
const tooMany = (page: { total: number }) => page.total > STATUS_LIST_LIMIT;
export const fetchStatusPageFx = createApiFx((cursor: string | null) =>
  call(devicesApi.page, { query: { limit: STATUS_PAGE, ...(cursor ? { cursor } : {}) } }),
);
/** The report's devices by serial, in the order read (device id). */
export const $statusDevices = createStore<Readonly<Record<string, StatusDevice>>>({}, { serialize: 'ignore' });
export const $status = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
/** Devices in the caller's scope, as the server counts them (the first page says). */
export const $statusTotal = createStore<number | null>(null);
/** The counts per county (GET /api/v1/statusCounts), read when the fleet is too large to list whole. */
export const fetchStatusCountsFx = createApiFx((): Promise<StatusCountsByCounty> => call(devicesApi.statusCounts));
export const $countyCounts = createStore<StatusCountsByCounty | null>(null, { serialize: 'ignore' });
/** A county's devices read, a page at a time. */
export const fetchCountyPageFx = createApiFx(({ county, cursor }: { county: number; cursor: string | null }) =>
  call(devicesApi.page, { query: { limit: STATUS_PAGE, county, ...(cursor ? { cursor } : {}) } }),
);
/** A county's 'Show devices' or 'Hide devices'. */
export const countyToggled = createEvent<number>();
/** Counties whose devices are being read, and those read (listed, live by push). */
export const $readingCounties = createStore<ReadonlySet<number>>(new Set(), { serialize: 'ignore' });
export const $listedCounties = createStore<ReadonlySet<number>>(new Set(), { serialize: 'ignore' });
/** A county whose devices could not be read (its section says so; opening it again tries again). */
export const $countyFailed = createStore<number | null>(null);

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
export const $report = combine(
  {
    shown: $shown,
    devices: $statusDevices,
    names: $countyNames,
    sites: $sites,
    batches: $batches,
    counted: $countyCounts,
    reading: $readingCounties,
    listed: $listedCounties,
  },
  ({ shown, devices, names, sites, batches, counted, reading, listed }) => {
    const held = statusReport(shown ? Object.values(devices) : [], names, sites, batches, rowOf);
    return counted ? byCountyReport(counted, held, reading, listed, names) : held;
  },
);
/** Pushes arrive: the socket is up and the device subscriptions are live. */
export const $isLive = combine($connected, $live, (connected, live) => connected && live);

sample({ clock: [statusPageMounted, retryClicked], fn: () => undefined, target: [fetchSitesFx, fetchBatchesFx] });

// The devices: page after page from the first, each page's fields narrowed as it arrives.
const firstRead = sample({ clock: statusPageMounted, source: $status, filter: (status) => status !== 'loading' });
$statusDevices.reset(firstRead, sessionEnded, devicesCleared);
$statusTotal.reset(firstRead, sessionEnded, devicesCleared);
for (const store of [$countyCounts, $readingCounties, $listedCounties, $countyFailed])
  store.reset(firstRead, sessionEnded, devicesCleared);
$status
  .on(firstRead, () => 'loading')
  .on([fetchStatusPageFx.fail, fetchStatusCountsFx.fail], () => 'failed')
  .reset(sessionEnded, devicesCleared);
sample({ clock: firstRead, fn: () => null, target: fetchStatusPageFx });
$statusTotal.on(fetchStatusPageFx.doneData, (_, page) => page.total);
// Every device listed: page after page. Too many (the first page's total says): the counts per county instead.
const pageListed = sample({ clock: fetchStatusPageFx.doneData, filter: (page) => !tooMany(page) });
const devicesRead = sample({ clock: [pageListed, fetchCountyPageFx.doneData] });
$statusDevices.on(devicesRead, (held, page) => {
  const next = { ...held };
  for (const item of page.items) next[item.serial] = statusFieldsOf(item) as StatusDevice;
  return next;
});
// The report's devices are kept live while the page is open: their pushes are subscribed (features/live-devices).
const $liveHeld = createStore<readonly string[]>([], { serialize: 'ignore' })
  .on(devicesRead, (held, page) => [...held, ...page.items.map((d) => d.serial)])
  .reset(firstRead, statusPageLeft, sessionEnded, devicesCleared);
keepLive('status', $liveHeld);
sample({
  clock: pageListed,
  filter: (page) => page.nextCursor !== null,
  fn: (page) => page.nextCursor,
  target: fetchStatusPageFx,
});
$status.on(pageListed, (status, page) => (page.nextCursor === null ? 'ready' : status));
sample({ clock: fetchStatusPageFx.doneData, filter: tooMany, fn: () => undefined, target: fetchStatusCountsFx });
$countyCounts.on(fetchStatusCountsFx.doneData, (_, counted) => counted);
$status.on(fetchStatusCountsFx.done, () => 'ready');

// A county opened: its devices read a page at a time (a county the page left meanwhile is not read on).
// One sample decides which (two samples of the same click would each see the other's change).
const countyChosen = sample({
  clock: countyToggled,
  source: { reading: $readingCounties, listed: $listedCounties },
  fn: ({ reading, listed }, county) => ({ county, open: !reading.has(county) && !listed.has(county) }),
});
const countyOpened = countyChosen.filterMap(({ county, open }) => (open ? county : undefined));
const countyClosed = countyChosen.filterMap(({ county, open }) => (open ? undefined : county));
const withCounty = (set: ReadonlySet<number>, county: number) => new Set(set).add(county);
const withoutCounty = (set: ReadonlySet<number>, county: number) => {
  const next = new Set(set);
  next.delete(county);
  return next;
};
$readingCounties.on(countyOpened, withCounty);
$countyFailed.on(countyOpened, () => null);
sample({ clock: countyOpened, fn: (county) => ({ county, cursor: null }), target: fetchCountyPageFx });
sample({
  clock: fetchCountyPageFx.done,
  source: $readingCounties,
  filter: (reading, { params, result }) => reading.has(params.county) && result.nextCursor !== null,
  fn: (_, { params, result }) => ({ county: params.county, cursor: result.nextCursor }),
  target: fetchCountyPageFx,
});
const countyRead = sample({
  clock: fetchCountyPageFx.done,
  source: $readingCounties,
  filter: (reading, { params, result }) => reading.has(params.county) && result.nextCursor === null,
  fn: (_, { params }) => params.county,
});
$readingCounties.on(countyRead, withoutCounty).on(countyClosed, withoutCounty);
$listedCounties.on(countyRead, withCounty).on(countyClosed, withoutCounty);
$readingCounties.on(fetchCountyPageFx.fail, (reading, { params }) => withoutCounty(reading, params.county));
$countyFailed.on(fetchCountyPageFx.fail, (_, { params }) => params.county);
// A county closed (or whose read failed): its devices let go, and their pushes.
const countyDropped = sample({
  clock: [countyClosed, fetchCountyPageFx.fail.map(({ params }) => params.county)],
});
const heldOutside = (held: Readonly<Record<string, StatusDevice>>, county: number) => {
  const next: Record<string, StatusDevice> = {};
  for (const serial in held) if (held[serial]!.location_id !== county) next[serial] = held[serial]!;
  return next;
};
$statusDevices.on(countyDropped, heldOutside);
sample({
  clock: countyDropped,
  source: $statusDevices,
  fn: (held) => Object.keys(held),
  target: $liveHeld,
});

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
