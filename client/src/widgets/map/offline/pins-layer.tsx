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
import type { Bounds } from '../lib/pin-clusters';
import { STATUS_KEYS, type PinStatusKey } from '../lib/pins';
import { clusterExpansionZoom, pinsView } from '../lib/pins-builder';
import { $pinnedDevices, $pins, $selectedSerial, clusterClicked, devicePinClicked } from '../model';
import { toSpecZoom, useOfflineMap } from './map-context';
import { addLayerUnchecked, addSourceUnchecked, imagesAddedQuietly } from './maplibre-internals';
import { PINS_SOURCE } from './drawn-pins';

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
  const handlers = useUnit({ pinClicked: devicePinClicked, clusterClicked });
  const latest = useRef(handlers);
  latest.current = handlers;

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

    // The clusters and pins of the view only, clustered in the pins worker (lib/pin-clusters.ts: each status
    // counted as n r o w p, and the site range gmin..gmax, which the labels layer names when it is one site);
    // given by the effect below once the map has a view.
    addSourceUnchecked(map, PINS_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
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
      const zoom = (await clusterExpansionZoom(clusterId)) ?? map.getZoom() + 2;
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
  }, [map]);

  useEffect(() => {
    // The source holds the clusters and pins of the view and as much again on each side, at the view's whole
    // zoom level: asked again of the pins worker when the view leaves that box or changes zoom level, and for
    // each new build (a live change). One request at a time; one asked meanwhile goes once it is answered.
    let alive = true;
    let asking = false;
    let again = false;
    let shown: { bounds: Bounds; level: number } | null = null;
    const around = (): Bounds => {
      const view = map.getBounds();
      const [west, south, east, north] = [view.getWest(), view.getSouth(), view.getEast(), view.getNorth()];
      const dx = (east - west) / 2;
      const dy = (north - south) / 2;
      return [Math.max(-180, west - dx), Math.max(-85, south - dy), Math.min(180, east + dx), Math.min(85, north + dy)];
    };
    const within = ([west, south, east, north]: Bounds) => {
      const view = map.getBounds();
      return view.getWest() >= west && view.getSouth() >= south && view.getEast() <= east && view.getNorth() <= north;
    };
    const refresh = async () => {
      if (asking) return void (again = true);
      asking = true;
      const bounds = around();
      const zoom = map.getZoom();
      const answer = await pinsView(bounds, zoom).finally(() => (asking = false));
      if (!alive) return;
      const source = map.getSource(PINS_SOURCE) as GeoJSONSource | undefined;
      if (source && answer.build >= pins.id) {
        source.setData(answer.view as GeoJSON.FeatureCollection);
        shown = { bounds, level: Math.floor(zoom) };
      }
      if (again) {
        again = false;
        void refresh();
      }
    };
    const onMove = () => {
      if (!shown || Math.floor(map.getZoom()) !== shown.level || !within(shown.bounds)) void refresh();
    };
    map.on('move', onMove);
    void refresh();
    return () => {
      alive = false;
      map.off('move', onMove);
    };
  }, [map, pins]);

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
