import { MAP_DEFAULTS } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { $devices, $selectedSerial, devicePinClicked } from '../../entities/device';
import { $visibleDevices } from '../../features/active-pin-filter';
import { toPinCollection } from './lib/pins';

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

/** The visible pins as GeoJSON, the form both providers draw from. */
export const $pins = $visibleDevices.map(toPinCollection);

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MAP_DEFAULTS.minZoom, zoom));

$zoom.on(mapMoved, (_, { zoom }) => zoom).reset(mapReset);
$center.on(mapMoved, (_, { center }) => center).reset(mapReset);
$viewRequest.reset(mapReset);

const nextSeq = (request: ViewRequest | null) => (request?.seq ?? 0) + 1;

// A step, not an absolute zoom: two quick clicks must zoom two levels even while the first still
// animates, and only the map knows where it is heading.
sample({ clock: zoomInClicked, source: $viewRequest, fn: (request): ViewRequest => ({ zoomBy: ZOOM_STEP, seq: nextSeq(request) }), target: $viewRequest });
sample({ clock: zoomOutClicked, source: $viewRequest, fn: (request): ViewRequest => ({ zoomBy: -ZOOM_STEP, seq: nextSeq(request) }), target: $viewRequest });
// Selecting a device centres it at zoom 15.
sample({
  clock: devicePinClicked,
  source: { devices: $devices, request: $viewRequest },
  filter: ({ devices }, serial) => !!devices[serial]?.location,
  fn: ({ devices, request }, serial): ViewRequest => ({ center: devices[serial]!.location!, zoom: MAP_DEFAULTS.selectedZoom, seq: nextSeq(request) }),
  target: $viewRequest,
});
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

export { $selectedSerial, devicePinClicked };
