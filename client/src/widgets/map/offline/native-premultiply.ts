import type { Map as MaplibreMap } from 'maplibre-gl';

/** MapLibre's WebGL texture (its Texture class, not public API): the two methods that upload raw pixels. */
type RawImage = { data: ArrayBufferView | null };
type TextureMethods = {
  context: { pixelStoreUnpackPremultiplyAlpha: { set(value: boolean): void } };
  format: number;
  _uploadRawData(image: RawImage, premultiply: boolean, width: number, height: number, gl: WebGLRenderingContext): void;
  _updateRawData(image: RawImage, premultiply: boolean, x: number, y: number, width: number, height: number, gl: WebGLRenderingContext): void;
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
