import 'maplibre-gl/dist/maplibre-gl.css';
import { MAP_DEFAULTS } from '@fleet/shared';
import { useUnit } from 'effector-react';
import {
  addProtocol,
  importScriptInWorkers,
  Map as MaplibreMap,
  setWorkerUrl,
  type AddProtocolAction,
  type StyleSpecification,
} from 'maplibre-gl';
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-csp-worker.js?url';
import { useEffect, useRef, useState } from 'react';
import { $clientConfig } from '../../../shared/config';
import { MAX_ZOOM } from '../model';
import { afterFirstPaint } from '../lib/after-paint';
import { yieldToBrowser } from '../../../shared/lib';
import { enableJsonText } from './json-text';
import { painterGl, premultiplyNatively, renderOnlyLayers, skipSkyWhileFlat } from './maplibre-internals';
import {
  fenceCheck,
  frameGate,
  holdFrames,
  isSoftwareRenderer,
  warmUpWebGl,
  layerReveal,
  LOADING_FRAME_GAP_MS,
  MOVING_PIXEL_RATIO,
  revealWhenDrawn,
} from '../lib/render-quality';
import { BasemapLayer, BORDERS, WATER } from './basemap-layer';
import { COUNTY_LINE_LAYER, CountyLayer } from './county-layer';
import { LabelsLayer } from './labels-layer';
import { OfflineMapContext, registerHiddenRedraw, toGlZoom } from './map-context';
import { PINS_SOURCE, VIEW_PINS_SOURCE } from './drawn-pins';
import { CLUSTER_COUNTS_LAYER, CLUSTERS_LAYER, PINS_LAYER, PinsLayer, VIEW_PINS_LAYER } from './pins-layer';
import { PlaceNamesLayer } from './place-names-layer';
import { PlacingLayer } from './placing-layer';
import { ServiceRouteLayer } from './service-route-layer';
import { SiteViewLayer } from './site-view-layer';
import { ViewSync } from './view-sync';
import styles from './offline-map.module.css';

/**
 * The offline provider: MapLibre with no tiles, no glyphs URL and no sprites, so it needs no key and no
 * network beyond this server (its text layers MapLibre draws with the browser's own fonts). Its own
 * basemap: land and water, state and county (parish) borders, town names (npm data: world-atlas,
 * us-atlas, the GeoNames gazetteer); then the fleet's county outlines from
 * the API, the pins and their clusters, the labels. With MAP_STYLE_URL the operator's MapLibre style is
 * the basemap instead (a Protomaps basemap from a PMTiles file works: the pmtiles:// protocol is
 * registered). Default controls, double-click zoom and rotation are off (spec section 2); the keyboard
 * still pans (arrows) and zooms (+/-) once the map has focus.
 */
/**
 * MapLibre's worker from a file of its own (the CSP build, aliased in client/vite.config.ts), not from the
 * string its default build turns into a blob: URL on every page load. A file is cached like any hashed
 * asset, and the browser keeps its compiled code, so a returning page does not parse and compile 460 kB of
 * worker again (about 0.2 s less of the page's CPU a signed-in load in the e2e browser).
 */
setWorkerUrl(mapWorkerUrl);

export default function OfflineMap() {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MaplibreMap | null>(null);
  // Labels and town names join once the map has drawn everything else (its first idle).
  const [settled, setSettled] = useState(false);
  const resolution = useRef<DynamicResolution | null>(null);
  const styleUrl = useUnit($clientConfig)?.mapStyleUrl ?? null;
  // The map's own layers join in tasks of their own, in their drawing order: the basemap, the county
  // outlines, the pins. Adding a layer parses its style expressions, and the three groups added in one
  // task were 50-90 ms of the page's main thread (tests/perf/map-trace.ts, the mobile page).
  const [layerGroups, setLayerGroups] = useState(0);
  const layersIn = layerGroups >= LAYER_GROUPS;
  useEffect(() => {
    if (!map || layersIn) return;
    const timer = window.setTimeout(() => setLayerGroups((n) => n + 1), 0);
    return () => window.clearTimeout(timer);
  }, [map, layersIn, layerGroups]);

  useEffect(() => {
    if (!container.current) return;
    let cancelled = false;
    let instance: MaplibreMap | null = null;
    let unregister = () => {};
    const start = async () => {
      // The page's panels paint first; MapLibre's start-up is one long task of its own.
      await afterFirstPaint();
      if (cancelled) return;
      // The built-in basemap is a PMTiles archive, and an operator's style may read one (pmtiles://): the
      // protocol's code loads on its first request, while the map starts.
      addProtocol('pmtiles', pmtilesOnDemand);
      // The workers learn to read data sent as JSON text (the pins' hand-over: json-text.ts).
      void enableJsonText(importScriptInWorkers);
      // The page's first WebGL context costs more than the next (the browser connects to its GPU process):
      // taken here, in a task of its own, `new Map` is 50-60 ms shorter under Lighthouse's 4x slowdown, and
      // the longest task of the signed-in load (225 ms, tests/perf/map-trace.ts) under 200 ms.
      const softwareLikely = warmUpWebGl();
      await yieldToBrowser();
      if (cancelled || !container.current) return;
      instance = create(container.current, styleUrl, softwareLikely);
      const software = isSoftwareRenderer(painterGl(instance));
      exposeForTests(instance);
      resolution.current = software ? dynamicResolution(instance) : null;
      if (resolution.current) unregister = registerHiddenRedraw(instance, resolution.current.redrawHidden);
      instance.on('load', () => setMap(instance));
    };
    void start();
    return () => {
      cancelled = true;
      setMap(null);
      setLayerGroups(0);
      setSettled(false);
      resolution.current = null;
      unregister();
      instance?.remove();
    };
  }, [styleUrl]);

  // The layers below have added their sources by now (children's effects run first): the next idle is
  // the map drawn with all of them.
  useEffect(() => {
    if (!map || !layersIn) return;
    resolution.current?.layersAdded();
    // On a software rasteriser the labels (HTML over the map) wait for the canvas to be shown.
    const onIdle = () => {
      if (!resolution.current) return setSettled(true);
      resolution.current.loaded();
      resolution.current.whenShown(() => setSettled(true));
    };
    map.once('idle', onIdle);
    return () => {
      map.off('idle', onIdle);
    };
  }, [map, layersIn]);

  return (
    <div
      ref={container}
      className={styles.map}
      data-map-provider="offline"
      data-map-style={styleUrl ? 'operator' : 'built-in'}
      data-testid="fleet-map"
    >
      {map ? (
        <OfflineMapContext.Provider value={map}>
          {layerGroups >= 1 && !styleUrl ? <BasemapLayer /> : null}
          {layerGroups >= 2 ? <CountyLayer /> : null}
          {layerGroups >= 3 ? <PinsLayer /> : null}
          {layerGroups >= 3 ? <ServiceRouteLayer /> : null}
          {settled ? <LabelsLayer /> : null}
          {settled && !styleUrl ? <PlaceNamesLayer /> : null}
          <ViewSync />
          <SiteViewLayer />
          <PlacingLayer />
        </OfflineMapContext.Provider>
      ) : null}
    </div>
  );
}

/**
 * The MapLibre map: the built-in empty style (layers add the basemap) or the operator's style. On a
 * software rasteriser (`software`: the page's first WebGL context said so) its drawing buffer is kept
 * after each frame is shown, so the picture on screen can be copied when the map is to draw hidden
 * (redrawHidden); there every frame is read back for compositing anyway.
 */
function create(element: HTMLDivElement, styleUrl: string | null, software: boolean): MaplibreMap {
  // No background layer: the land colour is the container's CSS background, so the GPU (often a
  // software rasteriser in headless and VM browsers) never fills the whole screen an extra time per frame.
  // No paint transitions: MapLibre fades each layer's paint properties in over 300 ms by default, drawing a
  // frame every animation frame while any fades, although these layers' colours are meant to appear as
  // they are. A signed-in load drew 18-25 frames before, 13-14 without (tests/perf/map-trace.ts's page,
  // counted with the map's 'render' event); on a software rasteriser each is a long task on a slow phone.
  const style: StyleSpecification | string = styleUrl ?? {
    version: 8,
    sources: {},
    layers: [],
    transition: { duration: 0, delay: 0 },
  };
  const instance = new MaplibreMap({
    container: element,
    style,
    center: [MAP_DEFAULTS.lng, MAP_DEFAULTS.lat],
    zoom: toGlZoom(MAP_DEFAULTS.zoom),
    minZoom: toGlZoom(MAP_DEFAULTS.minZoom),
    maxZoom: toGlZoom(MAX_ZOOM),
    attributionControl: false,
    doubleClickZoom: false,
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    fadeDuration: 0,
    ...(software ? { canvasContextAttributes: { preserveDrawingBuffer: true } } : {}),
  });
  instance.touchZoomRotate.disableRotation();
  instance.keyboard.disableRotation();
  skipSkyWhileFlat(instance);
  premultiplyNatively(instance);
  instance.getCanvas().setAttribute('aria-label', 'Map of devices. Arrow keys pan, plus and minus zoom.');
  return instance;
}

let pmtiles: Promise<import('pmtiles').Protocol> | null = null;
/**
 * The `pmtiles` protocol (vector tiles from one PMTiles file, read by byte ranges: the built-in basemap's
 * archive, or a Protomaps basemap in an operator's style), its package loaded on the first pmtiles:// request.
 */
const pmtilesOnDemand: AddProtocolAction = async (request, abort) => {
  pmtiles ??= import('pmtiles').then(({ Protocol }) => new Protocol());
  return (await pmtiles).tilev4(request, abort);
};

type TestHook = { __fleetMapHook?: unknown; __fleetMap?: MaplibreMap };

/**
 * Browser tests read what the map has drawn (queryRenderedFeatures on the basemap's layers) through the
 * map itself: a test's init script sets `window.__fleetMapHook = true` before the app starts, and only
 * then is the map handed over as `window.__fleetMap`. Nothing in the app sets the flag, so a person's
 * page never exposes it.
 */
function exposeForTests(instance: MaplibreMap) {
  const w = window as unknown as TestHook;
  if (w.__fleetMapHook === true) w.__fleetMap = instance;
}

const fullRatio = () => window.devicePixelRatio || 1;

/** The map's own groups of layers, each added in a task of its own: basemap, county outlines, pins. */
const LAYER_GROUPS = 3;

type DynamicResolution = {
  layersAdded(): void;
  loaded(): void;
  whenShown(run: () => void): void;
  redrawHidden(): void;
};

/**
 * The longest a software-rasterised map stays hidden (revealWhenDrawn): only a source that never finishes
 * (a tile that does not come) or a GPU that never answers reaches it; pins that arrive late do not (their
 * source starts empty and loaded, and the pins are drawn when they come).
 */
const REVEAL_WAIT_MS = 10_000;
/** The longest a shown map draws hidden behind a copy of its picture (redrawHidden) before it is shown whatever happened. */
const REDRAW_WAIT_MS = 10_000;

/** The groups of this map's own layers in the order they join its first picture on a software rasteriser (layerReveal). */
const REVEAL_STAGES: ((layerId: string) => boolean)[] = [
  (id) => id === WATER,
  (id) => id.startsWith(BORDERS),
  (id) => id === COUNTY_LINE_LAYER,
  (id) => id === PINS_LAYER || id === VIEW_PINS_LAYER,
  (id) => id === CLUSTERS_LAYER || id === CLUSTER_COUNTS_LAYER,
];

/**
 * Dynamic resolution on a software rasteriser, where every frame costs the CPU in proportion to its
 * pixels: half resolution while moving (smooth panning), full resolution when still (crisp pins and
 * lines). While the map loads its frames are spaced and its canvas stays hidden until the GPU has drawn
 * the first complete picture (revealWhenDrawn), a group of layers a frame (layerReveal). It loads at full
 * resolution: hidden frames cost the page's main thread nothing of their pixels, and switching to full
 * resolution at the first idle resized the canvas, 40 ms of the main thread here (the GPU process
 * reallocates the drawing buffer while the page waits). `layersAdded()` is called once the map's own
 * layers are in, `loaded()` at the first idle.
 */
function dynamicResolution(instance: MaplibreMap): DynamicResolution {
  let loading = true;
  let moving = false;
  let adjusting = false;
  // While it loads and stands still its frames are spaced (frameGate): each tile, source and glyph set
  // that arrives would otherwise be a frame of its own. Movement and the loaded map draw every frame.
  const drawFrame = instance.triggerRepaint.bind(instance);
  const gate = frameGate(drawFrame, LOADING_FRAME_GAP_MS);
  // Once shown and standing still, its frames wait while the pins' source has work in MapLibre's worker
  // (holdFrames): the pins of 100,000 devices change the picture once, when they are all laid out.
  const pinsBusy = () => [PINS_SOURCE, VIEW_PINS_SOURCE].some((id) => !!instance.getSource(id) && !instance.isSourceLoaded(id));
  const held = holdFrames(() => gate.request(), pinsBusy);
  let shown = false;
  instance.triggerRepaint = () => held.request(moving || !shown);
  instance.once('remove', () => {
    held.stop();
    gate.stop();
  });
  // setPixelRatio resizes the canvas, and a resize outside a movement fires its own
  // movestart/moveend (and stops a camera animation): hence the deferral and the guard.
  const setRatio = (ratio: number) => {
    if (instance.getPixelRatio() === ratio) return;
    adjusting = true;
    try {
      instance.setPixelRatio(ratio);
    } finally {
      adjusting = false;
    }
  };
  instance.on('movestart', () => {
    if (adjusting) return;
    moving = true;
    gate.open();
    requestAnimationFrame(() => {
      if (moving) setRatio(Math.min(fullRatio(), MOVING_PIXEL_RATIO));
    });
  });
  instance.on('moveend', () => {
    if (adjusting) return;
    moving = false;
    if (loading) gate.close();
    setRatio(fullRatio());
  });
  instance.getContainer().dataset.dynamicResolution = 'true';

  // Hidden from the start (the frames of the empty style cost a copy back each too); the container's
  // data-reveal says where it is ('revealing', then 'done', or 'timed out' when the fallback showed it):
  // the browser tests wait for 'done'.
  const canvas = instance.getCanvas();
  canvas.style.visibility = 'hidden';
  instance.getContainer().dataset.reveal = 'revealing';
  let layersIn = false;
  // The painter's per-layer draw (MapLibre's Painter.renderLayer, not public API) skips the layers whose
  // group has not joined yet.
  const stages = layerReveal(REVEAL_STAGES);
  const restoreRenderLayer = renderOnlyLayers(instance, (id) => stages.shows(id));
  const reveal = revealWhenDrawn({
    fence: () => fenceCheck(painterGl(instance)),
    waitMs: REVEAL_WAIT_MS,
    // The GPU has drawn the groups so far: the next one joins in a frame of its own, asked for now.
    more: () => {
      if (!stages.advance()) return false;
      drawFrame();
      return true;
    },
    show: (how) => {
      instance.off('render', onRender);
      shown = true;
      stages.finish();
      restoreRenderLayer();
      canvas.style.visibility = '';
      instance.getContainer().dataset.reveal = how;
      for (const run of onShown.splice(0)) run();
      // After a complete picture no frame is asked for: the last one drawn hidden is what the page
      // composites now, without drawing it again. After the fallback every group is drawn anew.
      if (how === 'timed out') drawFrame();
    },
  });
  const onShown: (() => void)[] = [];
  // The layers whose source is still loading: while the pins' group has not joined, a frame without the pins
  // is complete (layerReveal's complete). At 100,000 devices MapLibre's worker parses and clusters the pins
  // for 1-1.5 s (a 2-core host at 1,907 /healthz req/s), and the groups before them are drawn meanwhile, not
  // one after another once the pins are in (tests/perf/pins-timeline.ts).
  const busyLayers = () =>
    instance.getLayersOrder().filter((id) => {
      const source = instance.getLayer(id)?.source;
      return !!source && !instance.isSourceLoaded(source);
    });
  const complete = () => layersIn && stages.complete(instance.loaded(), busyLayers);
  const onRender = () => reveal.frameDrawn(complete());
  instance.on('render', onRender);
  instance.once('remove', () => reveal.stop());

  // Whole new pins on a shown map: its frames until they are all laid out and drawn are drawn hidden, behind
  // a copy of the picture on screen. Shown, each of those frames was read back on the page's main thread,
  // which waited for the GPU process to draw it, and the pins' first frames are the most costly (their
  // layers' first draws): at 100,000 devices, whose pins come after the map is first shown, three frames of
  // 100-385 ms under a 4x CPU slowdown beside the bench's calibrated load, the GPU process drawing the
  // while (tests/perf/map-trace.ts with THREADS=1). Hidden, the GPU draws while the main thread stays free.
  // The copy is an ImageBitmap of the drawing buffer (kept after each frame here: create), shown by a
  // 'bitmaprenderer' canvas: taken in under a millisecond of the main thread, where drawing the canvas into
  // a 2D one read its pixels back there (24 ms, a task Lighthouse counts 4 times over). The map is hidden
  // once the copy is in its place. A movement shows the live map at once.
  let still: HTMLCanvasElement | null = null;
  let redraw: { finish(how: 'moved' | 'not copied'): void } | null = null;
  const redrawHidden = () => {
    if (!shown || moving || redraw || typeof createImageBitmap !== 'function') return;
    // Only a kept drawing buffer can be copied after its frame was shown (create asks for it where the
    // page's first context was a software one); and the map a keyboard user is on keeps its focus (a hidden
    // canvas would lose it).
    if (!painterGl(instance).getContextAttributes()?.preserveDrawingBuffer || document.activeElement === canvas) return;
    let copying: Promise<ImageBitmap>;
    try {
      copying = createImageBitmap(canvas);
    } catch {
      return;
    }
    const copy = (still ??= stillOf(canvas));
    shown = false;
    // The container's data-redraw says where it is: 'hidden', then 'done', 'timed out', 'moved' or 'not copied'.
    const container = instance.getContainer();
    container.dataset.redraw = 'hidden';
    const onRedrawRender = () => hidden.frameDrawn(instance.loaded());
    const finish = (how: 'done' | 'timed out' | 'moved' | 'not copied') => {
      instance.off('render', onRedrawRender);
      container.dataset.redraw = how;
      redraw = null;
      shown = true;
      canvas.style.visibility = '';
      copy.style.visibility = 'hidden';
    };
    const hidden = revealWhenDrawn({
      fence: () => fenceCheck(painterGl(instance)),
      waitMs: REDRAW_WAIT_MS,
      show: (how) => {
        finish(how);
        if (how === 'timed out') drawFrame();
      },
    });
    const current = {
      finish(how: 'moved' | 'not copied') {
        hidden.stop();
        finish(how);
      },
    };
    redraw = current;
    void copying.then(
      (bitmap) => {
        // Shown already (a movement, the picture complete): the copy is not needed.
        if (redraw !== current) return bitmap.close();
        copy.width = bitmap.width;
        copy.height = bitmap.height;
        copy.style.width = canvas.style.width;
        copy.style.height = canvas.style.height;
        copy.getContext('bitmaprenderer')?.transferFromImageBitmap(bitmap);
        copy.style.visibility = '';
        canvas.style.visibility = 'hidden';
      },
      () => current.finish('not copied'),
    );
    instance.on('render', onRedrawRender);
    // A frame now: if nothing else changes (the data was not sent after all), it is the complete picture.
    drawFrame();
  };
  instance.on('movestart', () => redraw?.finish('moved'));
  instance.once('remove', () => {
    redraw?.finish('moved');
    still?.remove();
  });

  return {
    layersAdded() {
      layersIn = true;
      stages.arm();
      instance.triggerRepaint();
    },
    loaded() {
      loading = false;
      gate.open();
    },
    whenShown(run) {
      if (reveal.hidden) onShown.push(run);
      else run();
    },
    redrawHidden,
  };
}

/** The image a map shows while it draws hidden (redrawHidden): over the canvas, the same size, inert. */
function stillOf(canvas: HTMLCanvasElement): HTMLCanvasElement {
  const still = document.createElement('canvas');
  still.setAttribute('aria-hidden', 'true');
  still.dataset.mapStill = 'true';
  Object.assign(still.style, {
    position: 'absolute',
    left: '0',
    top: '0',
    pointerEvents: 'none',
    visibility: 'hidden',
  });
  canvas.after(still);
  return still;
}
