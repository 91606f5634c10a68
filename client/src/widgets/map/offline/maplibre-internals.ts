import type { AddLayerObject, GeoJSONSource, Map as MaplibreMap, SourceSpecification } from 'maplibre-gl';

/**
 * Every use of MapLibre's internals (what its public API does not offer) in one module, so an upgrade has
 * one place to check (issue 45). maplibre-gl is pinned to MAPLIBRE_VERSION in client/package.json, not a
 * caret range, and maplibre-internals.test.ts fails when the installed library no longer has what this
 * module relies on (a member, a signature, a message type): upgrade it on purpose, read that test's
 * failures, adjust here, and change the pin and MAPLIBRE_VERSION together.
 *
 * What is relied on: Map#_update and Style#addSource/addLayer with `{ validate: false }` (unchecked
 * layers); the image manager's atlas texture and Texture#_uploadRawData/_updateRawData (native
 * premultiply); the style's dispatcher, its 'SI' (setImages) message and Style#_availableImages (quiet
 * images); the painter's drawFunctions.sky, renderLayer and context.gl (no sky, staged reveal);
 * GeoJSONSource#_data (data handed over as JSON text).
 * Its worker-side counterpart runs in MapLibre's workers and cannot live here: json-text-worker.js (the
 * worker's actor and its 'LD' loadData handler), checked by the same test.
 */
export const MAPLIBRE_VERSION = '5.24.1';

/**
 * map.addSource and map.addLayer without MapLibre's style validation, which those two run on every call
 * whatever the map's `validateStyle` option says (it serialises the style and checks the new part: 137 ms of
 * one start-up task under Lighthouse's 4x CPU slowdown, `DETAIL=1 RATE=4 npx tsx tests/perf/map-trace.ts`).
 * These sources and layers are this code's own, fixed in it and drawn by the browser tests; an operator's
 * style (MAP_STYLE_URL) is still validated when it loads. The same two steps as Map.addSource/addLayer:
 * the style's setter, then an update that restyles and redraws.
 */
export function addSourceUnchecked(map: MaplibreMap, id: string, source: SourceSpecification) {
  map.style.addSource(id, source, { validate: false });
  map._update(true);
}

export function addLayerUnchecked(map: MaplibreMap, layer: AddLayerObject, before?: string) {
  map.style.addLayer(layer, before, { validate: false });
  map._update(true);
}

/** MapLibre's WebGL texture (its Texture class, not public API): the two methods that upload raw pixels. */
type RawImage = { data: ArrayBufferView | null };
type TextureMethods = {
  context: { pixelStoreUnpackPremultiplyAlpha: { set(value: boolean): void } };
  format: number;
  _uploadRawData(image: RawImage, premultiply: boolean, width: number, height: number, gl: WebGLRenderingContext): void;
  _updateRawData(
    image: RawImage,
    premultiply: boolean,
    x: number,
    y: number,
    width: number,
    height: number,
    gl: WebGLRenderingContext,
  ): void;
};
type ImageManager = { atlasTexture?: object; bind(context: unknown): void };

/** Marks MapLibre's Texture prototype once patched (several maps on a page share it). */
const PATCHED = Symbol.for('fleet.nativePremultiply');

/**
 * MapLibre 5 premultiplies the alpha of raw pixel data in JavaScript before each texture upload (its
 * issue #2030: Firefox warns when WebGL is asked to do it for anything but a DOM image). Every tile's icon
 * atlas is such data: the pins' and the clusters' images, uploaded in the frames that first draw them,
 * 66 ms of one such frame of the 10,000-device map page under a 4x CPU slowdown (tests/perf/map-trace.ts,
 * its `premultiplyAlpha`). Here, outside Firefox, the upload asks WebGL to premultiply
 * (UNPACK_PREMULTIPLY_ALPHA_WEBGL), which the browser does in its own code during the transfer: the same
 * texels (a browser test reads them back), without the JavaScript loop. The Texture class is reached
 * through the image manager's atlas texture, made here ahead of its first use. Relies on MapLibre
 * internals (those two methods' signatures), pinned with maplibre-gl's version; the method MapLibre calls
 * them from sets the flag back to its default after each upload.
 */
export function premultiplyNatively(instance: MaplibreMap): boolean {
  if (/Firefox\//.test(navigator.userAgent)) return false;
  const manager = (instance.style as unknown as { imageManager?: ImageManager } | undefined)?.imageManager;
  if (!manager) return false;
  manager.bind(instance.painter.context);
  const texture = manager.atlasTexture;
  if (!texture) return false;
  const proto = Object.getPrototypeOf(texture) as TextureMethods & { [PATCHED]?: true };
  if (proto[PATCHED]) return true;
  if (typeof proto._uploadRawData !== 'function' || typeof proto._updateRawData !== 'function') return false;
  proto._uploadRawData = function (this: TextureMethods, image, premultiply, width, height, gl) {
    this.context.pixelStoreUnpackPremultiplyAlpha.set(premultiply);
    gl.texImage2D(gl.TEXTURE_2D, 0, this.format, width, height, 0, this.format, gl.UNSIGNED_BYTE, image.data);
  };
  proto._updateRawData = function (this: TextureMethods, image, premultiply, x, y, width, height, gl) {
    this.context.pixelStoreUnpackPremultiplyAlpha.set(premultiply);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, x, y, width, height, gl.RGBA, gl.UNSIGNED_BYTE, image.data);
  };
  proto[PATCHED] = true;
  return true;
}

/** MapLibre's message to its workers with the list of the map's images (Style#_afterImageUpdated; MessageType.setImages). */
const SET_IMAGES = 'SI';

/**
 * Adds images without MapLibre telling its workers about each one. After every addImage MapLibre sends
 * its workers the whole list of the map's image ids (one message per image: 11 ms of the 10,000-device
 * map's cluster-image task). Here that message is held while the images of one request are added and
 * sent once, with the final list, right after (a microtask). The workers read that list only to answer
 * `image` expressions, which this map's layers have not (their icon-image is a string); the images
 * themselves reach the tile that asked for them in MapLibre's answer to its request, as before. Relies
 * on MapLibre internals (its dispatcher and that message's type), pinned with maplibre-gl's version.
 */
type Broadcasting = { broadcast: (type: string, data: unknown) => Promise<unknown> };
export function imagesAddedQuietly(map: MaplibreMap) {
  let queued = false;
  return (add: () => void) => {
    const dispatcher = map.style.dispatcher as unknown as Broadcasting;
    const broadcast = dispatcher.broadcast;
    let held = false;
    dispatcher.broadcast = (type, data) => {
      if (type !== SET_IMAGES) return broadcast.call(dispatcher, type, data);
      held = true;
      return Promise.resolve([]);
    };
    try {
      add();
    } finally {
      dispatcher.broadcast = broadcast;
    }
    if (!held || queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      // One message, with the list as it is once the request's images are all added.
      if (map.style) void (map.style.dispatcher as unknown as Broadcasting).broadcast(SET_IMAGES, map.style._availableImages);
    });
  };
}

/**
 * MapLibre draws its sky before the layers of every frame: a quad over the whole canvas whose fragment
 * shader colours what lies above the horizon. This map never tilts (pitch stays 0: rotation and pitch are
 * off above), so there is no horizon on screen, the sky writes no colour and only the far depth the clear
 * already wrote; yet every pixel runs its shader. On a software rasteriser that was most of a still frame
 * (Chromium's SwiftShader at 721x1440, the mobile page Lighthouse loads: 38 ms a frame with the sky, 11 ms
 * without, the GPU process's time read back on the main thread). The painter's draw functions are its
 * own copy here (MapLibre's table is shared by every map on the page), and a tilted map still gets its sky.
 */
export function skipSkyWhileFlat(instance: MaplibreMap) {
  const painter = instance.painter;
  const drawSky = painter.drawFunctions.sky;
  painter.drawFunctions = { ...painter.drawFunctions, sky: (p, sky) => (p.transform.pitch > 0 ? drawSky(p, sky) : undefined) };
}

/** The WebGL context the map draws with (Painter#context.gl). */
export function painterGl(instance: MaplibreMap): WebGLRenderingContext | WebGL2RenderingContext {
  return instance.painter.context.gl;
}

/**
 * Draws only the layers `shows` accepts (MapLibre's Painter#renderLayer, not public API, wrapped): the
 * staged reveal on a software rasteriser. Returns the function that puts MapLibre's own back.
 */
export function renderOnlyLayers(instance: MaplibreMap, shows: (layerId: string) => boolean): () => void {
  const painter = instance.painter;
  const renderLayer = painter.renderLayer;
  painter.renderLayer = function (this: typeof painter, ...args: Parameters<typeof renderLayer>) {
    if (shows(args[2].id)) renderLayer.apply(this, args);
  };
  return () => {
    painter.renderLayer = renderLayer;
  };
}

type SourceData = { _data: { geojson: GeoJSON.GeoJSON } };
/** The source keeps `data` as its copy of what it holds (GeoJSONSource#_data), as setData(data) would. */
export function keepSourceData(source: GeoJSONSource, data: GeoJSON.GeoJSON) {
  (source as unknown as SourceData)._data = { geojson: data };
}
