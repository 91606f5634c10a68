import { batchesApi, sitesApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $countyNames } from '../../entities/county';
import { $devices, $devicesStatus, deviceListNeeded } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { $live } from '../../features/live-devices';
import { call, createApiFx } from '../../shared/api';
import { $connected } from '../../shared/realtime';
import { rowCache, statusReport, type BatchInfo, type Site } from './lib/status-report';

/**
 * /status: the caller's fleet as a printable report. The devices are the app's (loaded once after
 * sign-in and patched by the same device pushes as the map: no polling here); the page itself reads the
 * sites once (their time zones) and the batches once (their states).
 */
export const statusPageMounted = createEvent();
export const retryClicked = createEvent();

export const fetchSitesFx = createApiFx(() => call(sitesApi.deviceGroups) as Promise<Site[]>);
export const fetchBatchesFx = createApiFx(() => call(batchesApi.list));

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
export const $report = combine($shown, $devices, $countyNames, $sites, $batches, (shown, devices, names, sites, batches) =>
  statusReport(shown ? Object.values(devices) : [], names, sites, batches, rowOf),
);
export const $status = $devicesStatus;
/** Pushes arrive: the socket is up and the device subscriptions are live. */
export const $isLive = combine($connected, $live, (connected, live) => connected && live);

sample({ clock: [statusPageMounted, retryClicked], fn: () => undefined, target: [fetchSitesFx, fetchBatchesFx] });
// The full device answers are read only once a view shows them (the map draws from the compact pin feed).
sample({ clock: [statusPageMounted, retryClicked], fn: () => undefined, target: deviceListNeeded });
