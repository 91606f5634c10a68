import { MAP_DEFAULTS, placesApi, sitesApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';
import { $devicePins, $selectedSerial, devicePinClicked, deviceSelected } from '../../entities/device';
import { $visibleDevices } from '../../features/active-pin-filter';
import { minPopulationAt } from './lib/place-names';
import { toPinCollection, type PinCollection, type PinSource } from './lib/pins';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The map screen's view state, provider-neutral. Zoom levels are the spec's (Google's 256 px tile
 * scale); the offline provider converts. Providers report moves with mapMoved and apply
 * $viewRequest, a command with a sequence number so the same zoom asked twice still moves.
 */
export type LatLng = { lat: number; lng: number };
/** Go to a zoom (and centre), or step the zoom by `zoomBy` from where the map is heading. */
export type ViewRequest = { center?: LatLng; zoom?: number; zoomBy?: number; bounds?: Bounds; seq: number };
/** [[west, south], [east, north]] in degrees: fit the map to them (a county's outline). */
export type Bounds = [[number, number], [number, number]];

export const MAX_ZOOM = 20;
export const ZOOM_STEP = 1;

export const zoomInClicked = createEvent();
export const zoomOutClicked = createEvent();
export const mapMoved = createEvent<{ zoom: number; center: LatLng }>();
export const clusterClicked = createEvent<{ center: LatLng; zoom: number }>();
export const mapReset = createEvent();
/** Show this area whole (a county selected in the dashboard zooms to its outline). */
export const boundsRequested = createEvent<Bounds>();

export const $zoom = createStore<number>(MAP_DEFAULTS.zoom);
export const $center = createStore<LatLng>({ lat: MAP_DEFAULTS.lat, lng: MAP_DEFAULTS.lng });
export const $viewRequest = createStore<ViewRequest | null>(null);
/** Device labels only at zoom 10 and above (spec section 2). */
export const $labelsVisible = $zoom.map((zoom) => zoom >= MAP_DEFAULTS.labelMinZoom - 1e-6);

/**
 * The visible pins as GeoJSON, the form both providers draw from, built in a task of its own after the
 * pins change: at 10,000 devices the collection (each site's pins fanned out, a feature for each) was
 * 60 ms of a task of 180-260 ms under Lighthouse's 4x CPU slowdown, the one that hands the pin feed to the
 * stores (tests/perf/map-trace.ts). Changes that come together are built once, from the latest pins.
 */
export const $pins = createStore<PinCollection>(toPinCollection([]), { serialize: 'ignore' });
const $pinsBuiltFrom = createStore<readonly PinSource[] | null>(null, { serialize: 'ignore' });
const pinsBuildDue = createEffect(() => yieldToBrowser());
const pinsBuilt = createEvent<readonly PinSource[]>();
sample({ clock: $visibleDevices, target: pinsBuildDue });
sample({
  clock: pinsBuildDue.finally,
  source: { devices: $visibleDevices, built: $pinsBuiltFrom },
  filter: ({ devices, built }) => devices !== built,
  fn: ({ devices }) => devices,
  target: pinsBuilt,
});
$pinsBuiltFrom.on(pinsBuilt, (_, devices) => devices);
$pins.on(pinsBuilt, (_, devices) => toPinCollection(devices));

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MAP_DEFAULTS.minZoom, zoom));

$zoom.on(mapMoved, (_, { zoom }) => zoom).reset(mapReset);
$center.on(mapMoved, (_, { center }) => center).reset(mapReset);
$viewRequest.reset(mapReset);

const nextSeq = (request: ViewRequest | null) => (request?.seq ?? 0) + 1;

// A step, not an absolute zoom: two quick clicks must zoom two levels even while the first still
// animates, and only the map knows where it is heading.
sample({
  clock: zoomInClicked,
  source: $viewRequest,
  fn: (request): ViewRequest => ({ zoomBy: ZOOM_STEP, seq: nextSeq(request) }),
  target: $viewRequest,
});
sample({
  clock: zoomOutClicked,
  source: $viewRequest,
  fn: (request): ViewRequest => ({ zoomBy: -ZOOM_STEP, seq: nextSeq(request) }),
  target: $viewRequest,
});
// Selecting a device centres it at zoom 15.
sample({
  clock: [devicePinClicked, deviceSelected],
  source: { pins: $devicePins, request: $viewRequest },
  filter: ({ pins }, serial) => !!pins[serial]?.location,
  fn: ({ pins, request }, serial): ViewRequest => ({
    center: pins[serial]!.location!,
    zoom: MAP_DEFAULTS.selectedZoom,
    seq: nextSeq(request),
  }),
  target: $viewRequest,
});
/**
 * A device selected before the pins hold it (a device's link opened at load, whose panel can open before
 * the pin feed answers on a slow connection) is centred when its pin arrives, once, if it is still the
 * selected device.
 */
const $centreWhenPinned = createStore<string | null>(null);
const pinnedSelectionCentred = createEvent();
sample({
  clock: [devicePinClicked, deviceSelected],
  source: $devicePins,
  fn: (pins, serial) => (pins[serial]?.location ? null : serial),
  target: $centreWhenPinned,
});
const pinArrived = sample({
  clock: $devicePins,
  source: { serial: $centreWhenPinned, selected: $selectedSerial, request: $viewRequest },
  filter: ({ serial, selected }, pins) => serial !== null && serial === selected && !!pins[serial]?.location,
  fn: ({ serial, request }, pins): ViewRequest => ({
    center: pins[serial!]!.location!,
    zoom: MAP_DEFAULTS.selectedZoom,
    seq: nextSeq(request),
  }),
});
sample({ clock: pinArrived, target: [$viewRequest, pinnedSelectionCentred] });
$centreWhenPinned.reset(pinnedSelectionCentred, mapReset);
sample({
  clock: boundsRequested,
  source: $viewRequest,
  fn: (request, bounds): ViewRequest => ({ bounds, seq: nextSeq(request) }),
  target: $viewRequest,
});
sample({
  clock: clusterClicked,
  source: $viewRequest,
  fn: (request, { center, zoom }): ViewRequest => ({ center, zoom: clampZoom(zoom), seq: nextSeq(request) }),
  target: $viewRequest,
});

/**
 * Placing a device's pin by hand (issue 42): the device form asks for it (pages/map connects them), with
 * the pin's current place or none. While placing, a click on the map drops the pin there and dragging it
 * moves it (offline map), 'Pin at map centre' drops it where the view is centred (any provider, and the
 * keyboard's way); every place goes out as placingPinMoved, and the form names it (placingPinLabelled).
 */
export type Placing = { location: LatLng | null; label: string | null };
export const pinPlacingStarted = createEvent<LatLng | null>();
export const placingPinMoved = createEvent<LatLng>();
export const placingPinLabelled = createEvent<string | null>();
export const placingCentreChosen = createEvent();
export const placingFinished = createEvent<'done' | 'cancelled'>();
export const $placing = createStore<Placing | null>(null);
$placing
  .on(pinPlacingStarted, (_, location) => ({ location, label: null }))
  .on(placingPinMoved, (placing, location) => placing && { location, label: null })
  .on(placingPinLabelled, (placing, label) => placing && placing.location && { ...placing, label })
  .reset(placingFinished, mapReset);
sample({
  clock: placingCentreChosen,
  source: { placing: $placing, center: $center },
  filter: ({ placing }) => placing !== null,
  fn: ({ center }) => center,
  target: placingPinMoved,
});
// A pin already placed is shown at street zoom.
sample({
  clock: pinPlacingStarted,
  source: $viewRequest,
  filter: (_, location) => location !== null,
  fn: (request, location): ViewRequest => ({ center: location!, zoom: MAP_DEFAULTS.selectedZoom, seq: nextSeq(request) }),
  target: $viewRequest,
});

/**
 * Site names for the labels: at zoom 10 and above a cluster of one site's devices carries the site's name
 * (spec section 2: labels from zoom 10). Read once when the labels first show, again when the pins'
 * sites change (a device added on a new site).
 */
export const fetchSiteNamesFx = createApiFx(
  () => call(sitesApi.deviceGroups) as Promise<{ id: number; name: string | null; address: string | null }[]>,
);
export const $siteNames = createStore<Record<number, string>>({});
$siteNames.on(fetchSiteNamesFx.doneData, (_, sites) =>
  Object.fromEntries(sites.map((s) => [s.id, (s.name || s.address || '').trim()]).filter(([, name]) => name !== '')),
);
/** The fleet's sites, as a key that changes when one is added or gone (numbers, sorted as numbers). */
const $siteKey = $devicePins.map((pins) => {
  const sites = new Set<number>();
  for (const serial in pins) {
    const site = pins[serial]!.location_group;
    if (site != null) sites.add(site);
  }
  return [...sites].sort((a, b) => a - b).join(',');
});
sample({
  clock: $siteKey,
  source: { pending: fetchSiteNamesFx.pending, wanted: $labelsVisible },
  filter: ({ pending, wanted }) => !pending && wanted,
  fn: () => undefined,
  target: fetchSiteNamesFx,
});
sample({
  clock: $labelsVisible,
  source: { names: $siteNames, pending: fetchSiteNamesFx.pending },
  filter: ({ names, pending }, visible) => visible && !pending && Object.keys(names).length === 0,
  fn: () => undefined,
  target: fetchSiteNamesFx,
});

/**
 * Town names of the offline map (GET /api/v1/placeNames): asked for the view whenever the map settles,
 * bigger towns only when zoomed out; an answer for a view left meanwhile is dropped.
 */
export type PlaceName = { name: string; state: string; population: number; lat: number; lng: number };
export type PlaceView = { west: number; south: number; east: number; north: number; zoom: number };
export const placeViewSettled = createEvent<PlaceView>();
export const fetchPlaceNamesFx = createApiFx(
  ({
    west,
    south,
    east,
    north,
    minPopulation,
  }: {
    west: number;
    south: number;
    east: number;
    north: number;
    minPopulation: number;
  }) => call(placesApi.placeNames, { query: { west, south, east, north, minPopulation, limit: 150 } }),
);
const $placeQuery = createStore<string>('');
export const $placeNames = createStore<PlaceName[]>([]);
const placeQueryOf = (view: PlaceView) => {
  // A margin of half a view each way, rounded, so small pans reuse the answer.
  const dx = (view.east - view.west) / 2;
  const dy = (view.north - view.south) / 2;
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    west: r(Math.max(-180, view.west - dx)),
    south: r(Math.max(-90, view.south - dy)),
    east: r(Math.min(180, view.east + dx)),
    north: r(Math.min(90, view.north + dy)),
    minPopulation: minPopulationAt(view.zoom),
  };
};
const placeQueryKey = (q: ReturnType<typeof placeQueryOf>) => `${q.west},${q.south},${q.east},${q.north},${q.minPopulation}`;
const placeAsked = sample({
  clock: placeViewSettled,
  source: $placeQuery,
  filter: (current, view) => {
    // The view still inside the last query's box at the same detail: nothing new to ask.
    const [w, s, e, n, min] = current.split(',').map(Number);
    return !(min === minPopulationAt(view.zoom) && view.west >= w! && view.south >= s! && view.east <= e! && view.north <= n!);
  },
  fn: (_, view) => placeQueryOf(view),
});
$placeQuery.on(placeAsked, (_, q) => placeQueryKey(q)).reset(fetchPlaceNamesFx.fail);
sample({ clock: placeAsked, target: fetchPlaceNamesFx });
$placeNames.on(
  sample({
    clock: fetchPlaceNamesFx.done,
    source: $placeQuery,
    filter: (key, { params }) => key === placeQueryKey(params),
    fn: (_, { result }) => result.places,
  }),
  (_, places) => places,
);

export { $selectedSerial, devicePinClicked };
