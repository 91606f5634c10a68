import { MAP_DEFAULTS } from '@fleet/shared';
import { useUnit } from 'effector-react';
import type {
  ExpressionSpecification,
  GeoJSONSource,
  MapLayerMouseEvent,
  MapStyleImageMissingEvent,
  SymbolLayerSpecification,
} from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import type { PinStatus, StatusCounts } from '../../../entities/device';
import {
  CLUSTER_DIAMETERS,
  clusterDiameter,
  COUNT_FONT_FAMILIES,
  countFontPxFor,
  createCanvas,
  drawClusterBubble,
  drawPin,
  PIN_SIZE,
  SHORT_COUNT_CHARS,
} from '../lib/draw';
import { coveredBoxes } from '../lib/clear-view';
import { readPalette } from '../lib/palette';
import { STATUS_KEYS, type PinsBuild, type PinStatusKey, type ViewBox } from '../lib/pins';
import { viewPins } from '../lib/pins-builder';
import { $pinnedDevices, $pins, $selectedSerial, clusterClicked, devicePinClicked, pinsBytesGone } from '../model';
import { redrawHidden, toGlZoom, toSpecZoom, useOfflineMap } from './map-context';
import { setJsonBytes } from './json-text';
import { addLayerUnchecked, addSourceUnchecked, imagesAddedQuietly } from './maplibre-internals';
import { PINS_SOURCE, VIEW_PINS_SOURCE } from './drawn-pins';
import { useSourceData } from './use-source-data';

/** A build's diff of the sites, when it was made from the build the source has (else the whole text goes). */
const buildDiff = (previous: PinsBuild, next: PinsBuild) => (next.sitesDiff && next.base === previous.id ? next.sitesDiff : null);
const buildSites = (build: PinsBuild) => build.sites;

/**
 * The single pins' layer ids: the sites of one device where pins cluster, the view's devices where they
 * no longer do; and the clusters' (the labels read them).
 */
export const PINS_LAYER = 'pins';
export const VIEW_PINS_LAYER = 'pins-view';
export const CLUSTERS_LAYER = 'clusters';
/** The clusters' counts, drawn over their bubbles (clicks and queries read CLUSTERS_LAYER). */
export const CLUSTER_COUNTS_LAYER = 'cluster-counts';
/**
 * The map container with its on-demand readouts for the end-to-end tests and the performance scripts: the
 * serials that have a pin, and what is drawn right now (clusters, the biggest one's place, single pins).
 */
type PinReadout = HTMLElement & { readPinSerials?: () => string[]; readRendered?: () => Record<string, string> };
const STATUSES: PinStatus[] = ['normal', 'registering', 'offline', 'warning', 'paused'];
/** Pins stop clustering from this spec zoom; a selected device (zoom 15) is always a single pin. */
export const CLUSTER_UNTIL_ZOOM = 14;
const CLUSTER_RADIUS_PX = 44;
/** The sites' layers are drawn below this GL zoom, the view's devices from it. */
const UNCLUSTERED_GL_ZOOM = toGlZoom(CLUSTER_UNTIL_ZOOM);
/**
 * The view's devices are read from this GL zoom on (a zoom before they are drawn, so a zoom-in finds them
 * there), for the view and a view's width and height around it.
 */
const VIEW_PINS_FROM_GL_ZOOM = UNCLUSTERED_GL_ZOOM - 1;

/** How many devices a bubble holds: a cluster's sum of its sites' counts, or one site's count. */
const deviceCount: ExpressionSpecification = ['get', 'c'];
/** The count as a bubble shows it: as MapLibre's point_count_abbreviated and abbreviateCount (lib/draw) write it. */
const deviceCountText: ExpressionSpecification = [
  'case',
  ['>=', deviceCount, 10_000],
  ['concat', ['to-string', ['round', ['/', deviceCount, 1000]]], 'k'],
  ['>=', deviceCount, 1000],
  ['concat', ['to-string', ['/', ['round', ['/', deviceCount, 100]], 10]], 'k'],
  ['to-string', deviceCount],
];
/** Ring shares are quantised to twelfths so clusters share a few dozen bubbles, not one each. */
const RING_STEPS = 12;
const BUBBLE_PREFIX = 'bubble|';

const share = (key: PinStatusKey): ExpressionSpecification => [
  'to-string',
  ['ceil', ['*', RING_STEPS, ['/', ['get', key], deviceCount]]],
];
/** bubble|<diameter>|offline|warning|registering|paused|normal (shares), the diameter as clusterDiameter gives it. */
const RING_ORDER: PinStatus[] = ['offline', 'warning', 'registering', 'paused', 'normal'];
const bubbleImage: ExpressionSpecification = [
  'concat',
  BUBBLE_PREFIX,
  [
    'to-string',
    ['step', deviceCount, ...CLUSTER_DIAMETERS.flatMap(([from, diameter], at) => (at === 0 ? [diameter] : [from, diameter]))],
  ],
  ...RING_ORDER.flatMap((status): (string | ExpressionSpecification)[] => ['|', share(STATUS_KEYS[status])]),
] as ExpressionSpecification;
/**
 * The count's text size: the canvas count's rule (clusterCountFontPx in lib/draw, which the Google map's
 * clusters use) as steps on the bubble's diameter, for short counts and for long ones ('1.3k', '100k').
 */
const countSizeFor = (long: boolean): ExpressionSpecification => {
  const [first, ...steps] = CLUSTER_DIAMETERS.map(([from, diameter]) => [from, countFontPxFor(diameter, long)]);
  return ['step', deviceCount, first![1]!, ...steps.flat()];
};
const countSize: ExpressionSpecification = [
  'case',
  ['>', ['length', deviceCountText], SHORT_COUNT_CHARS],
  countSizeFor(true),
  countSizeFor(false),
];
/**
 * The count's font stack. The offline style has no `glyphs` URL, so MapLibre draws each character it needs
 * once with TinySDF in the browser's own fonts (the stack's families, then sans-serif) and lays the text out
 * in its worker. It takes the weight from the first name ('Bold': 700), which names no font itself. An
 * operator's style (MAP_STYLE_URL) with a glyphs server is asked for this stack's first range once; a
 * server without it answers 404 and MapLibre draws the same glyphs here (with one console warning).
 */
const COUNT_FONT = ['Bold', ...COUNT_FONT_FAMILIES];

const selectedSize = (serial: string | null): ExpressionSpecification => [
  'case',
  ['==', ['get', 'serial'], serial ?? ''],
  1.45,
  1,
];
/** Worse statuses draw on top of better ones, the selected pin on top of all. */
const sortKey = (serial: string | null): ExpressionSpecification => [
  'case',
  ['==', ['get', 'serial'], serial ?? ''],
  10,
  ['match', ['get', 'status'], 'offline', 5, 'warning', 4, 'registering', 3, 'paused', 2, 1],
];

/**
 * Device pins and clusters: one clustered GeoJSON source whose clusters count each status,
 * symbol layers of cluster bubbles drawn on demand (styleimagemissing) and their counts as text, a symbol layer of pin images.
 * Everything stays on the GPU, which keeps 10,000 devices smooth. Renders nothing itself.
 */
export function PinsLayer() {
  const map = useOfflineMap();
  const [pins, selected, pinned] = useUnit([$pins, $selectedSerial, $pinnedDevices]);
  const handlers = useUnit({ pinClicked: devicePinClicked, clusterClicked, bytesGone: pinsBytesGone });
  const latest = useRef(handlers);
  latest.current = handlers;
  const initialData = useSourceData(
    map,
    PINS_SOURCE,
    pins,
    'next-task',
    buildDiff,
    buildSites,
    handlers.bytesGone,
    // Whole pins (the first build, or one after a diff could not be made) change most of the picture:
    // where the map draws them hidden behind its current picture, it does (offline-map.tsx).
    () => redrawHidden(map),
  );

  useEffect(() => {
    const palette = readPalette();
    // The screen's own pixel ratio, not rounded: images at 2x on a 1.75 screen (Lighthouse's phone) were
    // scaled down when drawn, and their 30 % more pixels were read back, copied to the map's worker and
    // premultiplied in its atlas (the 10,000-device map asks for about 80 cluster images at once).
    const ratio = Math.min(3, Math.max(1, window.devicePixelRatio || 1));
    const container = map.getContainer();

    for (const status of STATUSES) {
      const pad = 3;
      const { ctx } = createCanvas(PIN_SIZE.width + pad * 2, PIN_SIZE.height + pad, ratio);
      drawPin(ctx, PIN_SIZE.width / 2 + pad, PIN_SIZE.height + 1, status, palette);
      const image = ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height);
      map.addImage(`pin-${status}`, image, { pixelRatio: ratio });
    }

    // A cluster is an image drawn on demand, its bubble (size and ring shares: 18 different ones among the
    // 10,000-device map's 80 clusters), and its count, text in a layer above. Each image is copied to the
    // map's worker and premultiplied on this thread in every tile's atlas; with one image per cluster, its
    // count drawn in, that premultiply took twice as long (81-84 against 39 ms under a 4x CPU slowdown,
    // tests/perf/map-trace.ts). The counts were images too (one per count text) until the map of 100,000
    // devices asked for 123 of them at once, nearly one per cluster, in tasks of 206-451 ms: as text, the
    // eleven characters they use are drawn once and the counts are laid out in MapLibre's worker. The
    // counts' layer is above every bubble, so a count would show over a neighbour's bubble only where two
    // clusters nearly coincide: the closest pairs of the 10,000-device map at zooms 7 and 10 kept each
    // count clear.
    // One canvas per image size is reused (a canvas made for each image was 10 ms).
    const canvases = new Map<string, CanvasRenderingContext2D>();
    const canvasFor = (width: number, height: number) => {
      const key = `${width}x${height}`;
      let ctx = canvases.get(key);
      if (!ctx) canvases.set(key, (ctx = createCanvas(width, height, ratio).ctx));
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      ctx.restore();
      return ctx;
    };
    const addQuietly = imagesAddedQuietly(map);
    const onImageMissing = (event: MapStyleImageMissingEvent) => {
      if (map.hasImage(event.id)) return;
      let ctx: CanvasRenderingContext2D;
      if (event.id.startsWith(BUBBLE_PREFIX)) {
        const [size = '', ...parts] = event.id.slice(BUBBLE_PREFIX.length).split('|');
        const diameter = Number(size) || clusterDiameter(0);
        const shares: StatusCounts = { normal: 0, registering: 0, offline: 0, warning: 0, paused: 0 };
        RING_ORDER.forEach((status, at) => (shares[status] = Number(parts[at]) || 0));
        const side = diameter + 6;
        ctx = canvasFor(side, side);
        drawClusterBubble(ctx, side / 2, side / 2, shares, diameter, palette);
      } else return;
      const image = ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height);
      addQuietly(() => map.addImage(event.id, image, { pixelRatio: ratio }));
    };
    map.on('styleimagemissing', onImageMissing);

    // The sites, clustered (SiteProperties: one feature a site, its devices counted by status), drawn
    // below UNCLUSTERED_GL_ZOOM: a bubble where a cluster or a site holds more than one device, a pin
    // where a site holds one.
    addSourceUnchecked(map, PINS_SOURCE, {
      type: 'geojson',
      data: initialData(),
      // Sites are known by key, so a live change is sent as a diff of the sites it changed (sitesDiff).
      promoteId: 'k',
      cluster: true,
      clusterRadius: CLUSTER_RADIUS_PX,
      clusterMaxZoom: UNCLUSTERED_GL_ZOOM - 1,
      clusterProperties: {
        // The devices and each status summed from the sites' counts.
        c: ['+', deviceCount],
        ...Object.fromEntries(STATUSES.map((status) => [STATUS_KEYS[status], ['+', ['get', STATUS_KEYS[status]]]])),
        // The site range of a cluster: gmin === gmax means one site, which the labels layer names.
        gmin: ['min', ['get', 'g']],
        gmax: ['max', ['get', 'g']],
      },
    });
    // Where clustering stops, the devices of the view (and around it), fanned round their sites: read from
    // the pins' builder as the view moves (below), never the fleet's.
    addSourceUnchecked(map, VIEW_PINS_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    const pinLayout: SymbolLayerSpecification['layout'] = {
      'icon-image': ['concat', 'pin-', ['get', 'status']],
      'icon-anchor': 'bottom',
      'icon-size': selectedSize(null),
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
      'symbol-sort-key': sortKey(null),
    };
    addLayerUnchecked(map, {
      id: PINS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      maxzoom: UNCLUSTERED_GL_ZOOM,
      filter: ['==', deviceCount, 1],
      layout: pinLayout,
    });
    addLayerUnchecked(map, {
      id: VIEW_PINS_LAYER,
      type: 'symbol',
      source: VIEW_PINS_SOURCE,
      minzoom: UNCLUSTERED_GL_ZOOM,
      layout: pinLayout,
    });
    addLayerUnchecked(map, {
      id: CLUSTERS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      maxzoom: UNCLUSTERED_GL_ZOOM,
      filter: ['>', deviceCount, 1],
      layout: { 'icon-image': bubbleImage, 'icon-allow-overlap': true, 'icon-ignore-placement': true },
    });
    addLayerUnchecked(map, {
      id: CLUSTER_COUNTS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      maxzoom: UNCLUSTERED_GL_ZOOM,
      filter: ['>', deviceCount, 1],
      layout: {
        'text-field': deviceCountText,
        'text-font': COUNT_FONT,
        'text-size': countSize,
        // TinySDF's glyphs sit about 0.1 em below the line's middle (MapLibre aligns them between two server
        // fonts' baselines): raised, the count is centred on the disc as the canvas drew it.
        'text-offset': [0, -0.1],
        'text-allow-overlap': true,
        'text-ignore-placement': true,
      },
      paint: { 'text-color': palette.outline },
    });

    // While a pin is placed by hand a click drops it (placing-layer), choosing no device.
    const placing = () => map.getContainer().dataset.placing === 'true';
    const onPinClick = (event: MapLayerMouseEvent) => {
      if (placing()) return;
      const serial = event.features?.[0]?.properties?.serial;
      if (typeof serial === 'string') latest.current.pinClicked(serial);
    };
    const onClusterClick = async (event: MapLayerMouseEvent) => {
      const feature = event.features?.[0];
      const clusterId = feature?.properties?.cluster_id;
      if (placing()) return;
      if (!feature || feature.geometry.type !== 'Point') return;
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      const source = map.getSource(PINS_SOURCE) as GeoJSONSource;
      // A cluster opens where it splits; one site's bubble where its devices are drawn.
      const zoom =
        typeof clusterId === 'number'
          ? await source.getClusterExpansionZoom(clusterId).catch(() => map.getZoom() + 2)
          : Math.max(UNCLUSTERED_GL_ZOOM, map.getZoom() + 1);
      latest.current.clusterClicked({ center: { lat, lng }, zoom: Math.max(toSpecZoom(zoom), MAP_DEFAULTS.minZoom) });
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const noPointer = () => (map.getCanvas().style.cursor = '');
    // What is drawn right now, read when asked (tests/e2e/browser.ts mapData). Worked out at every idle
    // before: two queries over the whole view, about 9 ms of the loading map's last frame, 36 ms under
    // Lighthouse's 4x CPU slowdown, for readers that only tests have.
    (container as PinReadout).readRendered = () => {
      const clusters = map.queryRenderedFeatures({ layers: [CLUSTERS_LAYER] });
      // Where the biggest cluster a person can click is (not under a floating panel: the dashboard covers
      // part of the map on a tablet), so a test can click it without reading pixels.
      const covers = coveredBoxes(map.getContainer());
      const clickable = clusters.flatMap((feature) => {
        if (feature.geometry.type !== 'Point') return [];
        const point = map.project(feature.geometry.coordinates as [number, number]);
        return covers.some((b) => point.x >= b.left && point.x <= b.right && point.y >= b.top && point.y <= b.bottom)
          ? []
          : [{ feature, point }];
      });
      const biggest = clickable.reduce<(typeof clickable)[number] | null>(
        (best, c) => (!best || Number(c.feature.properties?.c) > Number(best.feature.properties?.c) ? c : best),
        null,
      );
      const at = biggest?.point ?? null;
      return {
        clusterCount: String(clusters.length),
        // The counts drawn as text: MapLibre places no symbol for a text it could not shape.
        clusterCountsDrawn: String(map.queryRenderedFeatures({ layers: [CLUSTER_COUNTS_LAYER] }).length),
        ...(at ? { biggestCluster: `${Math.round(at.x)},${Math.round(at.y)}` } : {}),
        renderedPinCount: String(map.queryRenderedFeatures({ layers: [PINS_LAYER, VIEW_PINS_LAYER] }).length),
      };
    };
    map.on('click', PINS_LAYER, onPinClick);
    map.on('click', VIEW_PINS_LAYER, onPinClick);
    map.on('click', CLUSTERS_LAYER, onClusterClick);
    for (const layer of [PINS_LAYER, VIEW_PINS_LAYER, CLUSTERS_LAYER]) {
      map.on('mouseenter', layer, pointer);
      map.on('mouseleave', layer, noPointer);
    }

    return () => {
      delete (container as PinReadout).readRendered;
      map.off('styleimagemissing', onImageMissing);
      map.off('click', PINS_LAYER, onPinClick);
      map.off('click', VIEW_PINS_LAYER, onPinClick);
      map.off('click', CLUSTERS_LAYER, onClusterClick);
      for (const layer of [PINS_LAYER, VIEW_PINS_LAYER, CLUSTERS_LAYER]) {
        map.off('mouseenter', layer, pointer);
        map.off('mouseleave', layer, noPointer);
      }
      if (!map.style) return;
      for (const layer of [CLUSTER_COUNTS_LAYER, CLUSTERS_LAYER, VIEW_PINS_LAYER, PINS_LAYER]) map.removeLayer(layer);
      map.removeSource(PINS_SOURCE);
      map.removeSource(VIEW_PINS_SOURCE);
    };
  }, [map, initialData]);

  useEffect(() => {
    // The pins handed to the map, by status: the tests count these instead of reading pixels.
    const container = map.getContainer();
    container.dataset.pinCount = String(pins.count);
    container.dataset.pinSiteCount = String(pins.siteCount);
    container.dataset.pinCounts = JSON.stringify(pins.counts);
    // Which devices have a pin, read on demand (an attribute of 10,000 serials would be rebuilt on
    // every live change): the tests compare a market partner's pins with its exclusive devices.
    // The devices the pins were built from, those with a place (the builder makes a pin of each): the build's
    // own JSON bytes were moved to the map's worker.
    (container as PinReadout).readPinSerials = () => pinned.filter((device) => device.location).map((device) => device.serial);
  }, [map, pins, pinned]);

  useEffect(() => {
    // This code's own values: no style validation on each selection (see addLayerUnchecked in maplibre-internals).
    for (const layer of [PINS_LAYER, VIEW_PINS_LAYER]) {
      map.setLayoutProperty(layer, 'icon-size', selectedSize(selected), { validate: false });
      map.setLayoutProperty(layer, 'symbol-sort-key', sortKey(selected), { validate: false });
    }
    map.getContainer().dataset.selectedSerial = selected ?? '';
  }, [map, selected]);

  useViewPins(map, pins);

  return null;
}

/** The view's box grown by its own width and height on each side (the devices a short pan reaches). */
function grownView(map: ReturnType<typeof useOfflineMap>): ViewBox {
  const bounds = map.getBounds();
  const width = bounds.getEast() - bounds.getWest();
  const height = bounds.getNorth() - bounds.getSouth();
  return [bounds.getWest() - width, bounds.getSouth() - height, bounds.getEast() + width, bounds.getNorth() + height];
}
const holds = (outer: ViewBox, inner: ViewBox) =>
  outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/**
 * Keeps the view pins' source at the devices around the view from VIEW_PINS_FROM_GL_ZOOM: asked of the pins'
 * builder (lib/pins-builder viewPins) when the map settles outside the box it holds, and again for each new
 * build of the pins (a live change). A few hundred pins at street level, however large the fleet.
 */
function useViewPins(map: ReturnType<typeof useOfflineMap>, pins: PinsBuild) {
  // The box whose devices the source holds (null: none), and the last view asked for.
  const state = useRef<{ held: ViewBox | null; asked: number }>({ held: null, asked: 0 });
  useEffect(() => {
    const current = state.current;
    const source = () => map.getSource(VIEW_PINS_SOURCE) as GeoJSONSource | undefined;
    const update = () => {
      if (map.getZoom() < VIEW_PINS_FROM_GL_ZOOM) return;
      const bounds = map.getBounds();
      const view: ViewBox = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
      if (current.held && holds(current.held, view)) return;
      const asked = ++current.asked;
      const box = grownView(map);
      void viewPins(box).then((json) => {
        const target = source();
        if (asked !== current.asked || !target || json.byteLength === 0) return;
        current.held = box;
        setJsonBytes(target, json);
      });
    };
    // Pins built anew: what the source holds is of the build before. Asked again where the view's devices
    // are read; elsewhere emptied, once (not on every live change while the map is zoomed out).
    if (current.held && map.getZoom() < VIEW_PINS_FROM_GL_ZOOM) source()?.setData({ type: 'FeatureCollection', features: [] });
    current.held = null;
    update();
    map.on('moveend', update);
    return () => {
      map.off('moveend', update);
    };
  }, [map, pins]);
}
