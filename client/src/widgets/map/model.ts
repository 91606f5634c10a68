import { MAP_DEFAULTS, placesApi, sitesApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, restore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';
import { $devicePins, $selectedSerial, devicePinClicked, deviceSelected, type PinRecord } from '../../entities/device';
import { $visibleDevices } from '../../features/active-pin-filter';
import { minPopulationAt } from './lib/place-names';
import { EMPTY_PINS, type PinSource, type PinsBuild } from './lib/pins';
import { buildPins } from './lib/pins-builder';
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
 * The visible pins as GeoJSON text (with the diff from the build before), the form both providers draw
 * from, built in a Web Worker (issue 46: at 100,000 devices building it on the page's thread was 855 ms
 * plus 1.1 s of garbage collection; lib/pins-builder.ts). Changes that come while a build runs are built
 * once, from the latest pins, and only the answer for the latest pins is kept.
 */
export const $pins = createStore<PinsBuild>(EMPTY_PINS, { serialize: 'ignore' });
const $pinsBuiltFrom = createStore<readonly PinSource[] | null>(null, { serialize: 'ignore' });
export const buildPinsFx = createEffect(async (devices: readonly PinSource[]) => {
  // Packed and posted in a task after the stores took the pins (at 100,000 pins the two together were one
  // task of 244 ms under a 4x CPU slowdown).
  await yieldToBrowser();
  return buildPins(devices);
});
/**
 * The built pins' bytes were moved to the map's worker before and the map asks for them again (its source
 * made anew: the map mounted again): the latest pins are built again, whole (offline/json-text.ts).
 */
export const pinsBytesGone = createEvent();
$pinsBuiltFrom.reset(pinsBytesGone);
sample({
  clock: [$visibleDevices, buildPinsFx.finally, pinsBytesGone],
  source: { devices: $visibleDevices, built: $pinsBuiltFrom, building: buildPinsFx.pending },
  filter: ({ devices, built, building }) => !building && devices !== built,
  fn: ({ devices }) => devices,
  target: buildPinsFx,
});
$pinsBuiltFrom.on(buildPinsFx, (_, devices) => devices);
/** A build done for the pins shown now (an answer for pins changed meanwhile is dropped). */
const builtLatest = sample({
  clock: buildPinsFx.done,
  source: $visibleDevices,
  filter: (latest, { params }) => latest === params,
  fn: (_, done) => done,
});
$pins.on(builtLatest, (_, { result }) => result);
/**
 * The devices $pins was built from: which devices have a pin, read on demand by the map's readout (the tests
 * and the performance scripts). $pins' own JSON bytes are moved to the map's worker, so they cannot be read.
 */
export const $pinnedDevices = createStore<readonly PinSource[]>([], { serialize: 'ignore' });
$pinnedDevices.on(builtLatest, (_, { params }) => params);

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
  filter: ({ pins }, serial) => !!pins.get(serial)?.location,
  fn: ({ pins, request }, serial): ViewRequest => ({
    center: pins.get(serial)!.location!,
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
  fn: (pins, serial) => (pins.get(serial)?.location ? null : serial),
  target: $centreWhenPinned,
});
const pinArrived = sample({
  clock: $devicePins,
  source: { serial: $centreWhenPinned, selected: $selectedSerial, request: $viewRequest },
  filter: ({ serial, selected }, pins) => serial !== null && serial === selected && !!pins.get(serial)?.location,
  fn: ({ serial, request }, pins): ViewRequest => ({
    center: pins.get(serial!)!.location!,
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
 * (spec section 2: labels from zoom 10). Read for the view, not for the fleet (issue 46: at 100,000 devices
 * on 10,000 sites every name was read at once): GET /api/v1/siteNames?bbox= (the names alone: deviceGroup's
 * sites for the same view were 6.6 MB at 100,000 devices, parsed on the page's thread) with the view and a margin of
 * SITE_VIEW_MARGIN of its size each way, once the view has settled for SITE_VIEW_SETTLE_MS, and only while
 * labels show. Each answer is merged into the names held; a view inside a box already read asks nothing
 * (panning back reads nothing again). A new site among the pins (a device placed on it) forgets the boxes
 * read and asks for the view again. Provider layers report the view with siteViewSettled (offline:
 * offline/site-view-layer.tsx).
 */
export type SiteView = { west: number; south: number; east: number; north: number };
/** How long a view stays put before its sites are asked for (a pan or zoom reports a move per gesture). */
export const SITE_VIEW_SETTLE_MS = 300;
/** The margin read around the view, as a share of its width and height each way. */
export const SITE_VIEW_MARGIN = 0.25;
export const siteViewSettled = createEvent<SiteView>();
/** The query's bbox, south,west,north,east, rounded outwards to 1e-4 degrees (about 10 m). */
export function siteBoxOf(view: SiteView): SiteView {
  const dx = (view.east - view.west) * SITE_VIEW_MARGIN;
  const dy = (view.north - view.south) * SITE_VIEW_MARGIN;
  const down = (n: number) => Math.floor(n * 1e4) / 1e4;
  const up = (n: number) => Math.ceil(n * 1e4) / 1e4;
  return {
    west: Math.max(-180, down(view.west - dx)),
    south: Math.max(-90, down(view.south - dy)),
    east: Math.min(180, up(view.east + dx)),
    north: Math.min(90, up(view.north + dy)),
  };
}
const inside = (view: SiteView, box: SiteView) =>
  view.west >= box.west && view.south >= box.south && view.east <= box.east && view.north <= box.north;
export const fetchSiteNamesFx = createApiFx((box: SiteView) =>
  call(sitesApi.siteNames, { query: { bbox: `${box.south},${box.west},${box.north},${box.east}` } }),
);
/** Waits for the view to settle (replaced in tests). */
export const siteViewWaitFx = createEffect(
  (view: SiteView) => new Promise<SiteView>((resolve) => setTimeout(() => resolve(view), SITE_VIEW_SETTLE_MS)),
);
export const $siteNames = createStore<Record<number, string>>({});
/** The latest view reported, and the boxes read (or being read) so far. */
const $siteView = createStore<SiteView | null>(null, { serialize: 'ignore' }).on(siteViewSettled, (_, view) => view);
const $siteBoxes = createStore<readonly SiteView[]>([], { serialize: 'ignore' });
// The server names each site (its name, else its address, trimmed) and leaves out sites with neither.
$siteNames.on(fetchSiteNamesFx.doneData, (names, sites) => {
  const merged = { ...names };
  for (const [id, name] of sites) merged[id] = name;
  return merged;
});
sample({ clock: siteViewSettled, target: siteViewWaitFx });
/** The view to read: the latest one, settled, with labels showing, outside every box read. */
const siteViewWanted = createEvent<SiteView>();
sample({
  clock: siteViewWaitFx.doneData,
  source: { latest: $siteView, wanted: $labelsVisible, boxes: $siteBoxes },
  filter: ({ latest, wanted, boxes }, view) => latest === view && wanted && !boxes.some((box) => inside(view, box)),
  fn: (_, view) => view,
  target: siteViewWanted,
});
// Labels turned on (a zoom in): the view they show, if it has settled already.
sample({
  clock: $labelsVisible,
  source: { view: $siteView, boxes: $siteBoxes, waiting: siteViewWaitFx.pending },
  filter: ({ view, boxes, waiting }, visible) => visible && !waiting && view !== null && !boxes.some((box) => inside(view, box)),
  fn: ({ view }) => view!,
  target: siteViewWanted,
});
const siteBoxAsked = sample({ clock: siteViewWanted, fn: siteBoxOf });
$siteBoxes.on(siteBoxAsked, (boxes, box) => [...boxes, box]);
// A failed read is forgotten, so the view is asked again when it next settles.
$siteBoxes.on(fetchSiteNamesFx.fail, (boxes, { params }) => boxes.filter((box) => box !== params));
sample({ clock: siteBoxAsked, target: fetchSiteNamesFx });
/** The fleet's sites, as a key that changes when one is added or gone (numbers, sorted as numbers). */
export function siteKeyOf(pins: PinRecord): string {
  const sites = new Set<number>();
  for (const pin of pins.values()) if (pin.location_group != null) sites.add(pin.location_group);
  return [...sites].sort((a, b) => a - b).join(',');
}
/**
 * Worked out in a task of its own after the pins change, not in the task that hands the feed to the stores:
 * at 100,000 pins it was 82 ms of that task under a 4x CPU slowdown (tests/perf/map-trace.ts). Answers come
 * in order (one yield each), so the last is the latest pins'.
 */
const siteKeyFx = createEffect(async (pins: PinRecord) => {
  await yieldToBrowser();
  return siteKeyOf(pins);
});
sample({ clock: $devicePins, target: siteKeyFx });
const $siteKey = restore(siteKeyFx.doneData, '');
const sitesChanged = sample({ clock: $siteKey.updates, fn: () => undefined });
$siteBoxes.reset(sitesChanged, mapReset);
// Signed out: nothing of the last user's sites stays.
$siteNames.reset(mapReset);
$siteView.reset(mapReset);
sample({
  clock: sitesChanged,
  source: { view: $siteView, wanted: $labelsVisible },
  filter: ({ view, wanted }) => wanted && view !== null,
  fn: ({ view }) => view!,
  target: siteViewWanted,
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
