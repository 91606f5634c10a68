import { MAP_DEFAULTS } from '@fleet/shared';
import { useUnit } from 'effector-react';
import type { ExpressionSpecification, GeoJSONSource, MapLayerMouseEvent, MapStyleImageMissingEvent } from 'maplibre-gl';
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
import { PIN_ID_PROPERTY, STATUS_KEYS, type PinsBuild, type PinStatusKey } from '../lib/pins';
import { $pinnedDevices, $pins, $selectedSerial, clusterClicked, devicePinClicked, pinsBytesGone } from '../model';
import { redrawHidden, toGlZoom, toSpecZoom, useOfflineMap } from './map-context';
import { addLayerUnchecked, addSourceUnchecked, imagesAddedQuietly } from './maplibre-internals';
import { PINS_SOURCE } from './drawn-pins';
import { useSourceData } from './use-source-data';

/** A build's diff, when it was made from the build the source has (else the whole text goes). */
const buildDiff = (previous: PinsBuild, next: PinsBuild) => (next.diff && next.base === previous.id ? next.diff : null);
const buildJson = (build: PinsBuild) => build.json;

/** The single pins' and the clusters' layer ids (the labels read them). */
export const PINS_LAYER = 'pins';
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
/** Ring shares are quantised to twelfths so clusters share a few dozen bubbles, not one each. */
const RING_STEPS = 12;
const BUBBLE_PREFIX = 'bubble|';

const share = (key: PinStatusKey): ExpressionSpecification => [
  'to-string',
  ['ceil', ['*', RING_STEPS, ['/', ['get', key], ['get', 'point_count']]]],
];
/** bubble|<diameter>|offline|warning|registering|paused|normal (shares), the diameter as clusterDiameter gives it. */
const RING_ORDER: PinStatus[] = ['offline', 'warning', 'registering', 'paused', 'normal'];
const bubbleImage: ExpressionSpecification = [
  'concat',
  BUBBLE_PREFIX,
  [
    'to-string',
    [
      'step',
      ['get', 'point_count'],
      ...CLUSTER_DIAMETERS.flatMap(([from, diameter], at) => (at === 0 ? [diameter] : [from, diameter])),
    ],
  ],
  ...RING_ORDER.flatMap((status): (string | ExpressionSpecification)[] => ['|', share(STATUS_KEYS[status])]),
] as ExpressionSpecification;
/**
 * The count's text size: the canvas count's rule (clusterCountFontPx in lib/draw, which the Google map's
 * clusters use) as steps on the bubble's diameter, for short counts and for long ones ('1.3k', '100k').
 */
const countSizeFor = (long: boolean): ExpressionSpecification => {
  const [first, ...steps] = CLUSTER_DIAMETERS.map(([from, diameter]) => [from, countFontPxFor(diameter, long)]);
  return ['step', ['get', 'point_count'], first![1]!, ...steps.flat()];
};
const countSize: ExpressionSpecification = [
  'case',
  ['>', ['length', ['to-string', ['get', 'point_count_abbreviated']]], SHORT_COUNT_CHARS],
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
    buildJson,
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

    addSourceUnchecked(map, PINS_SOURCE, {
      type: 'geojson',
      data: initialData(),
      // Pins are known by serial, so a live change is sent as a diff of the pins it changed (pinsDiff).
      promoteId: PIN_ID_PROPERTY,
      cluster: true,
      clusterRadius: CLUSTER_RADIUS_PX,
      clusterMaxZoom: toGlZoom(CLUSTER_UNTIL_ZOOM) - 1,
      clusterProperties: {
        // Each status counted from the pins' one `status` property (not a 0/1 column per status on every
        // pin: five fewer properties on each of 10,000 features to build, copy to the worker and index).
        ...Object.fromEntries(
          STATUSES.map((status) => [STATUS_KEYS[status], ['+', ['case', ['==', ['get', 'status'], status], 1, 0]]]),
        ),
        // The site range of a cluster: gmin === gmax means one site, which the labels layer names.
        gmin: ['min', ['get', 'g']],
        gmax: ['max', ['get', 'g']],
      },
    });
    addLayerUnchecked(map, {
      id: PINS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['concat', 'pin-', ['get', 'status']],
        'icon-anchor': 'bottom',
        'icon-size': selectedSize(null),
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
        'symbol-sort-key': sortKey(null),
      },
    });
    addLayerUnchecked(map, {
      id: CLUSTERS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      filter: ['has', 'point_count'],
      layout: { 'icon-image': bubbleImage, 'icon-allow-overlap': true, 'icon-ignore-placement': true },
    });
    addLayerUnchecked(map, {
      id: CLUSTER_COUNTS_LAYER,
      type: 'symbol',
      source: PINS_SOURCE,
      filter: ['has', 'point_count'],
      layout: {
        'text-field': ['to-string', ['get', 'point_count_abbreviated']],
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
      if (!feature || typeof clusterId !== 'number' || feature.geometry.type !== 'Point') return;
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      const source = map.getSource(PINS_SOURCE) as GeoJSONSource;
      const zoom = await source.getClusterExpansionZoom(clusterId).catch(() => map.getZoom() + 2);
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
        (best, c) =>
          !best || Number(c.feature.properties?.point_count) > Number(best.feature.properties?.point_count) ? c : best,
        null,
      );
      const at = biggest?.point ?? null;
      return {
        clusterCount: String(clusters.length),
        // The counts drawn as text: MapLibre places no symbol for a text it could not shape.
        clusterCountsDrawn: String(map.queryRenderedFeatures({ layers: [CLUSTER_COUNTS_LAYER] }).length),
        ...(at ? { biggestCluster: `${Math.round(at.x)},${Math.round(at.y)}` } : {}),
        renderedPinCount: String(map.queryRenderedFeatures({ layers: [PINS_LAYER] }).length),
      };
    };
    map.on('click', PINS_LAYER, onPinClick);
    map.on('click', CLUSTERS_LAYER, onClusterClick);
    for (const layer of [PINS_LAYER, CLUSTERS_LAYER]) {
      map.on('mouseenter', layer, pointer);
      map.on('mouseleave', layer, noPointer);
    }

    return () => {
      delete (container as PinReadout).readRendered;
      map.off('styleimagemissing', onImageMissing);
      map.off('click', PINS_LAYER, onPinClick);
      map.off('click', CLUSTERS_LAYER, onClusterClick);
      for (const layer of [PINS_LAYER, CLUSTERS_LAYER]) {
        map.off('mouseenter', layer, pointer);
        map.off('mouseleave', layer, noPointer);
      }
      if (!map.style) return;
      for (const layer of [CLUSTER_COUNTS_LAYER, CLUSTERS_LAYER, PINS_LAYER]) map.removeLayer(layer);
      map.removeSource(PINS_SOURCE);
    };
  }, [map, initialData]);

  useEffect(() => {
    // The pins handed to the map, by status: the tests count these instead of reading pixels.
    const container = map.getContainer();
    container.dataset.pinCount = String(pins.count);
    container.dataset.pinCounts = JSON.stringify(pins.counts);
    // Which devices have a pin, read on demand (an attribute of 10,000 serials would be rebuilt on
    // every live change): the tests compare a market partner's pins with its exclusive devices.
    // The devices the pins were built from, those with a place (the builder makes a pin of each): the build's
    // own JSON bytes were moved to the map's worker.
    (container as PinReadout).readPinSerials = () => pinned.filter((device) => device.location).map((device) => device.serial);
  }, [map, pins, pinned]);

  useEffect(() => {
    // This code's own values: no style validation on each selection (see addLayerUnchecked in maplibre-internals).
    map.setLayoutProperty(PINS_LAYER, 'icon-size', selectedSize(selected), { validate: false });
    map.setLayoutProperty(PINS_LAYER, 'symbol-sort-key', sortKey(selected), { validate: false });
    map.getContainer().dataset.selectedSerial = selected ?? '';
  }, [map, selected]);

  return null;
}
