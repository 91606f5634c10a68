import type { DeviceListItemShape } from '@fleet/shared';
import { pinStatusOf, type PinStatus, type StatusCounts } from '../../../entities/device';

/**
 * What a pin is drawn from: a compact pin of GET /api/v1/devicePins (the map's feed) or a full device
 * answer; both carry these fields under the same names.
 */
export type PinSource = {
  serial: string;
  label: string | null;
  location?: { lat: number; lng: number } | null;
  location_group: number | null;
  number: number | null;
} & Pick<DeviceListItemShape, 'is_pause' | 'is_warning' | 'is_online' | 'is_registration'>;

/**
 * One pin: its status (cluster sources count each status from it: STATUS_COUNTS). `g`: the site
 * (location_group), -1 for none; clusters keep its min and max to tell a one-site cluster.
 */
export type PinProperties = { serial: string; label: string; status: PinStatus; g: number };
/** A GeoJSON point feature of the map's, numbered. */
type PointFeature<P> = {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: P;
};
export type PinFeature = PointFeature<PinProperties>;
export type PinCollection = { type: 'FeatureCollection'; features: PinFeature[] };

/** A cluster's count of each status, under short names: n(ormal) r(egistering) o(ffline) w(arning) p(aused). */
export const STATUS_KEYS = { normal: 'n', registering: 'r', offline: 'o', warning: 'w', paused: 'p' } as const;
export type PinStatusKey = (typeof STATUS_KEYS)[PinStatus];

/** Devices of one site drawn on a small circle of this radius (px at zoom FAN_ZOOM) instead of on top of each other. */
export const FAN_RADIUS_PX = 20;
export const FAN_ZOOM = 14;

/**
 * Where each device's pin is drawn. Devices of one site (location_group) share an address, so their
 * pins would cover each other: they are spread evenly on a circle of FAN_RADIUS_PX at zoom 14, where clustering stops
 * (about 35 m), smaller when zoomed out (where such pins are clustered anyway).
 */
/**
 * Serials in code-unit order. Not localeCompare: a page's first localeCompare starts the collator, and
 * sorting the 10,000-device fleet's sites with it took 17-23 ms against 3-7 (Node on the bench host, a
 * fresh process each time; the whole first pinPositions 36-61 ms against 24-44); the order only decides
 * where on its site's circle each pin sits.
 */
const bySerial = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What pinPositions reads of a device or pin row. */
type Placed = Pick<PinSource, 'serial' | 'location' | 'location_group' | 'number'>;

/** The key of a device's site on the map: its location_group, else its place (rounded to about a metre). */
const siteKeyOf = (device: Placed): string =>
  device.location_group != null
    ? `g${device.location_group}`
    : `${device.location!.lat.toFixed(5)},${device.location!.lng.toFixed(5)}`;

/** The located devices by site (siteKeyOf), each site's in the order its fan is drawn in. */
function sitesOf<T extends Placed>(devices: readonly T[]): Map<string, T[]> {
  const sites = new Map<string, T[]>();
  for (const device of devices) {
    if (!device.location) continue;
    const key = siteKeyOf(device);
    const site = sites.get(key);
    if (site) site.push(device);
    else sites.set(key, [device]);
  }
  for (const site of sites.values())
    if (site.length > 1) site.sort((a, b) => (a.number ?? 0) - (b.number ?? 0) || bySerial(a.serial, b.serial));
  return sites;
}

/** The middle of a site's devices (where a lone device is). */
function centreOf(site: readonly Placed[]): [number, number] {
  let lat = 0;
  let lng = 0;
  for (const device of site) {
    lat += device.location!.lat;
    lng += device.location!.lng;
  }
  return [lng / site.length, lat / site.length];
}

export function pinPositions(devices: readonly Placed[]): Map<string, [number, number]> {
  const sites = sitesOf(devices);
  const degreesPerPx = 360 / (256 * 2 ** FAN_ZOOM);
  const positions = new Map<string, [number, number]>();
  for (const site of sites.values()) {
    if (site.length === 1) {
      const { lat, lng } = site[0]!.location!;
      positions.set(site[0]!.serial, [lng, lat]);
      continue;
    }
    const [lng, lat] = centreOf(site);
    const radius = FAN_RADIUS_PX * Math.max(1, site.length / 5) * degreesPerPx;
    const latScale = Math.cos((lat * Math.PI) / 180);
    site.forEach((device, at) => {
      const angle = (2 * Math.PI * at) / site.length - Math.PI / 2;
      positions.set(device.serial, [lng + radius * Math.cos(angle), lat - radius * Math.sin(angle) * latScale]);
    });
  }
  return positions;
}

/** A pin as the builder reads it: where, which site, and its status already worked out. */
export type PinRow = Pick<PinSource, 'serial' | 'label' | 'location_group' | 'number'> & {
  location: { lat: number; lng: number };
  status: PinStatus;
};

/** The located devices as pin rows (a device without a place has no pin). */
export function rowsOf(devices: readonly PinSource[]): PinRow[] {
  const rows: PinRow[] = [];
  for (const device of devices)
    if (device.location)
      rows.push({
        serial: device.serial,
        label: device.label,
        location: device.location,
        location_group: device.location_group,
        number: device.number,
        status: pinStatusOf(device),
      });
  return rows;
}

/** The rows' GeoJSON collection: a feature each, a site's pins fanned out (pinPositions). */
export function collectionOf(rows: readonly PinRow[]): PinCollection {
  const features: PinFeature[] = [];
  const positions = pinPositions(rows);
  for (const row of rows) {
    const position = positions.get(row.serial);
    if (!position) continue;
    features.push({
      type: 'Feature',
      id: features.length,
      geometry: { type: 'Point', coordinates: position },
      properties: { serial: row.serial, label: row.label || row.serial, status: row.status, g: row.location_group ?? -1 },
    });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * One site's devices as one feature of the map's clustered source (issue 46): their count `c` and their
 * count of each status (STATUS_KEYS), at the middle of the site; a site of one device also carries that
 * device's serial, label and status, and is drawn as its pin. `k` is the site's key on the map (its
 * location_group, else its place), the source's promoteId. The clustered zooms are drawn from these: at
 * 100,000 devices on 10,000 sites, MapLibre's worker parsed and clustered 100,000 pins on every zoom level
 * (1.6-1.7 s on a slow host, tests/perf/pins-timeline.ts) to draw bubbles that each hold whole sites anyway.
 * Where clustering stops, the devices of the view are drawn, fanned (createPinsBuilder's `view`).
 */
export type SiteProperties = Record<PinStatusKey, number> & {
  k: string;
  g: number;
  c: number;
  serial?: string;
  label?: string;
  status?: PinStatus;
};
export type SiteFeature = PointFeature<SiteProperties>;
export type SiteCollection = { type: 'FeatureCollection'; features: SiteFeature[] };

/** The rows' sites, a feature each (SiteProperties). */
export function siteCollectionOf(rows: readonly PinRow[]): SiteCollection {
  const features: SiteFeature[] = [];
  for (const [key, site] of sitesOf(rows)) {
    const counts: Record<PinStatusKey, number> = { n: 0, r: 0, o: 0, w: 0, p: 0 };
    for (const row of site) counts[STATUS_KEYS[row.status]] += 1;
    const one = site.length === 1 ? site[0]! : null;
    features.push({
      type: 'Feature',
      id: features.length,
      geometry: { type: 'Point', coordinates: centreOf(site) },
      properties: {
        k: key,
        g: site[0]!.location_group ?? -1,
        c: site.length,
        ...counts,
        ...(one ? { serial: one.serial, label: one.label || one.serial, status: one.status } : {}),
      },
    });
  }
  return { type: 'FeatureCollection', features };
}

export function toPinCollection(devices: readonly PinSource[]): PinCollection {
  return collectionOf(rowsOf(devices));
}

/**
 * Pin rows in columns, the form they are posted to the pins worker in (issue 46). A structured clone copies
 * an object property by property on the page's thread: 100,000 pin objects were 587 ms of one task under
 * Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts --devices 100000). Numbers go in typed arrays,
 * transferred without a copy; only the serials and labels are copied, as two arrays of strings.
 */
export type PinColumns = {
  serials: string[];
  /** '' for none (the pin then shows its serial). */
  labels: string[];
  /** lat, lng of each row. */
  coords: Float64Array;
  /** location_group and number, NaN for none. */
  groups: Float64Array;
  numbers: Float64Array;
  /** Index in PIN_STATUS_ORDER. */
  statuses: Uint8Array;
};
const PIN_STATUS_ORDER: readonly PinStatus[] = ['normal', 'registering', 'offline', 'warning', 'paused'];
const STATUS_INDEX = new Map(PIN_STATUS_ORDER.map((status, at) => [status, at]));

/** Writes one device's row `at` into the columns' number columns (the strings are the caller's). */
function packRow(columns: Omit<PinColumns, 'serials' | 'labels'>, at: number, device: PinSource) {
  columns.coords[at * 2] = device.location!.lat;
  columns.coords[at * 2 + 1] = device.location!.lng;
  columns.groups[at] = device.location_group ?? NaN;
  columns.numbers[at] = device.number ?? NaN;
  columns.statuses[at] = STATUS_INDEX.get(pinStatusOf(device))!;
}

const numberColumns = (n: number) => ({
  coords: new Float64Array(n * 2),
  groups: new Float64Array(n),
  numbers: new Float64Array(n),
  statuses: new Uint8Array(n),
});

/** The devices with a place: the rows a pin is made of. */
const locatedOf = (devices: Iterable<PinSource>) => {
  const located: PinSource[] = [];
  for (const device of devices) if (device.location) located.push(device);
  return located;
};

/**
 * Rows packed at once by packPostedPins: at 100,000 pins, packing and joining all of them was one task of
 * 333 ms under a 4x CPU slowdown; the caller's pause (yieldWhenDue on the page) ends a task once its time is up.
 */
export const PACK_SLICE = 2_000;

/**
 * The located devices packed in columns as they are posted to the pins worker (PostedPinColumns: no row objects
 * on the page's thread), `perSlice` rows at a time, `pause` between them (yieldWhenDue on the page). Each
 * slice's serials and labels are joined and encoded as it is packed.
 */
export async function packPostedPins(
  devices: Iterable<PinSource>,
  pause: () => Promise<void>,
  perSlice = PACK_SLICE,
): Promise<PostedPinColumns> {
  const located = locatedOf(devices);
  const n = located.length;
  const columns = numberColumns(n);
  const serials: Uint8Array[] = [];
  const labels: Uint8Array[] = [];
  const utf8 = new TextEncoder();
  for (let from = 0; from < n; from += perSlice) {
    if (from > 0) await pause();
    const to = Math.min(n, from + perSlice);
    const sliceSerials = new Array<string>(to - from);
    const sliceLabels = new Array<string>(to - from);
    for (let at = from; at < to; at++) {
      const device = located[at]!;
      sliceSerials[at - from] = device.serial;
      sliceLabels[at - from] = device.label ?? '';
      packRow(columns, at, device);
    }
    serials.push(utf8.encode(sliceSerials.join(JOIN)));
    labels.push(utf8.encode(sliceLabels.join(JOIN)));
  }
  return { ...columns, serials, labels };
}

/**
 * Packed columns as they are posted to the pins worker: the serials and the labels of each slice the UTF-8
 * bytes of one text, joined by NUL (a character no stored text holds: the shared schemas refuse it,
 * NUL_MESSAGE), and transferred. postMessage copies an array of strings string by string: at 100,000 pins the
 * two arrays were a task of 583 ms on the page's thread under a 4x CPU slowdown (tests/perf/map-trace.ts
 * --devices 100000); as two strings they were still copied when posted (its serialising was 79 ms of a
 * 224 ms task, the strings' joining more of it); bytes are moved, and encoded a slice at a time.
 */
export type PostedPinColumns = Omit<PinColumns, 'serials' | 'labels'> & { serials: Uint8Array[]; labels: Uint8Array[] };
const JOIN = '\u0000';
export function receivedColumns(posted: PostedPinColumns): PinColumns {
  const utf8 = new TextDecoder();
  const split = (slices: Uint8Array[]) => slices.flatMap((bytes) => utf8.decode(bytes).split(JOIN));
  return { ...posted, serials: split(posted.serials), labels: split(posted.labels) };
}

/** The typed arrays of packed columns: what postMessage transfers instead of copying. */
export const transferablesOf = (columns: PostedPinColumns): ArrayBuffer[] =>
  [columns.coords, columns.groups, columns.numbers, columns.statuses, ...columns.serials, ...columns.labels].map(
    (array) => array.buffer as ArrayBuffer,
  );

export function unpackPins(columns: PinColumns): PinRow[] {
  const orNull = (value: number) => (Number.isNaN(value) ? null : value);
  return columns.serials.map((serial, at) => ({
    serial,
    label: columns.labels[at] || null,
    location: { lat: columns.coords[at * 2]!, lng: columns.coords[at * 2 + 1]! },
    location_group: orNull(columns.groups[at]!),
    number: orNull(columns.numbers[at]!),
    status: PIN_STATUS_ORDER[columns.statuses[at]!]!,
  }));
}

/** What `sitesDiff` answers: MapLibre's GeoJSON source diff, by the sites' keys (`k`, the source's promoteId). */
export type SitesDiff = { remove: string[]; add: SiteFeature[] };
/** The fields of a site whose change sends it again. */
const SITE_FIELDS = ['g', 'c', 'n', 'r', 'o', 'w', 'p', 'serial', 'label', 'status'] as const;

/**
 * What changed between the sites the map has and the new ones (siteCollectionOf), as a GeoJSON source diff
 * keyed by `k`: sites gone, and sites new or changed (a count, a lone device's status, label or place: sent
 * as removed and added again). A live change of a few devices then sends the map's worker their sites, not
 * the whole fleet (at 10,000 pins MapLibre serialising the collection was 45-55 ms of main thread for each
 * update). Null when more than half of the sites changed (an Active Pin type toggled, another fleet):
 * replacing the data costs no more then.
 */
export function sitesDiff(previous: SiteCollection, next: SiteCollection): SitesDiff | null {
  const before = new Map<string, SiteFeature>();
  for (const feature of previous.features) before.set(feature.properties.k, feature);
  const diff: SitesDiff = { remove: [], add: [] };
  // Sites changed, new or gone: over this many, the whole data is sent instead.
  const limit = Math.max(previous.features.length, next.features.length) / 2;
  let touched = 0;
  for (const feature of next.features) {
    const key = feature.properties.k;
    const old = before.get(key);
    before.delete(key);
    if (old) {
      const [lng, lat] = feature.geometry.coordinates;
      const [oldLng, oldLat] = old.geometry.coordinates;
      if (oldLng === lng && oldLat === lat && SITE_FIELDS.every((field) => feature.properties[field] === old.properties[field]))
        continue;
      diff.remove.push(key);
    }
    diff.add.push(feature);
    if (++touched > limit) return null;
  }
  for (const key of before.keys()) {
    diff.remove.push(key);
    if (++touched > limit) return null;
  }
  return diff;
}

/** The status counts of a cluster's summed properties. */
export function countsOf(properties: Partial<Record<PinStatusKey, unknown>>): StatusCounts {
  const get = (key: PinStatusKey) => Number(properties[key] ?? 0) || 0;
  return { normal: get('n'), registering: get('r'), offline: get('o'), warning: get('w'), paused: get('p') };
}

export function countByStatus(collection: PinCollection): StatusCounts {
  const counts: StatusCounts = { normal: 0, registering: 0, offline: 0, warning: 0, paused: 0 };
  for (const feature of collection.features) counts[feature.properties.status] += 1;
  return counts;
}

/**
 * The map's pins as the builder hands them over (issue 46): the whole collection (the Google provider draws
 * it) and its sites (the offline map clusters them) as UTF-8 JSON bytes, which go to MapLibre's worker as
 * they are (json-text.ts), and, when build `base` was the one before, what changed in the sites since it
 * (sitesDiff) for a live change. The readouts' count and counts by status come with it.
 *
 * Bytes, not a string: postMessage copies a string on both threads, and the page reads a message's data
 * on its own thread. At 100,000 pins (18 MB of JSON) receiving the text from the pins worker was a task
 * of 329 ms and posting it on to MapLibre's worker another of 305 ms under a 4x CPU slowdown
 * (tests/perf/map-trace.ts --devices 100000); an ArrayBuffer is transferred, not copied, both ways.
 * Before that the collection went as objects: 890 ms to receive and 326 ms to stringify again.
 */
export type PinsBuild = {
  id: number;
  /** The build `sitesDiff` is relative to; null when there is none. */
  base: number | null;
  /** The collection's JSON, UTF-8. Never handed over itself (a transfer would empty it): jsonBytesOf copies. */
  json: Uint8Array;
  /** The sites' collection (siteCollectionOf), UTF-8 JSON: the offline map clusters these. Never handed over itself either. */
  sites: Uint8Array;
  /** What changed in the sites since build `base` (null when there is no base). */
  sitesDiff: SitesDiff | null;
  count: number;
  siteCount: number;
  counts: StatusCounts;
};

const encoder = new TextEncoder();
export const EMPTY_PINS: PinsBuild = {
  id: 0,
  base: null,
  json: encoder.encode(JSON.stringify(collectionOf([]))),
  sites: encoder.encode(JSON.stringify(siteCollectionOf([]))),
  sitesDiff: null,
  count: 0,
  siteCount: 0,
  counts: { normal: 0, registering: 0, offline: 0, warning: 0, paused: 0 },
};

/** A box of the map, [west, south, east, north] in degrees. */
export type ViewBox = [number, number, number, number];

/**
 * Builds PinsBuilds, each diffed against the one it built before: in the pins worker, or on the page's
 * thread where there is none. `id` numbers the request, so the map applies a diff only onto the build it
 * was made from (pins-layer). `view(box)` answers the latest build's pins in a box as JSON bytes: the
 * devices the offline map draws where clustering stops.
 */
export function createPinsBuilder() {
  let previous: { id: number; collection: PinCollection; sites: SiteCollection } | null = null;
  const build = (id: number, rows: readonly PinRow[]): PinsBuild => {
    const collection = collectionOf(rows);
    const sites = siteCollectionOf(rows);
    const siteChanges = previous ? sitesDiff(previous.sites, sites) : null;
    const build: PinsBuild = {
      id,
      base: siteChanges && previous ? previous.id : null,
      json: encoder.encode(JSON.stringify(collection)),
      sites: encoder.encode(JSON.stringify(sites)),
      sitesDiff: siteChanges,
      count: collection.features.length,
      siteCount: sites.features.length,
      counts: countByStatus(collection),
    };
    previous = { id, collection, sites };
    return build;
  };
  const view = (box: ViewBox): Uint8Array => {
    const [west, south, east, north] = box;
    const features = (previous?.collection.features ?? []).filter((feature) => {
      const [lng, lat] = feature.geometry.coordinates;
      return lng >= west && lng <= east && lat >= south && lat <= north;
    });
    return encoder.encode(JSON.stringify({ type: 'FeatureCollection', features }));
  };
  return { build, view };
}

/** A build's collection, parsed (the Google provider draws from objects; the tests' readout). */
export const collectionOfBuild = (build: PinsBuild): PinCollection =>
  JSON.parse(new TextDecoder().decode(build.json)) as PinCollection;

/** The buffers a build is posted with: its JSON bytes are transferred (the pins worker keeps no copy). */
export const buildTransferables = (build: PinsBuild): ArrayBuffer[] => [
  build.json.buffer as ArrayBuffer,
  build.sites.buffer as ArrayBuffer,
];
