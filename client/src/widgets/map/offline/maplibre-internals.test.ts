import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import clientPackage from '../../../../package.json';
import { MAPLIBRE_VERSION } from './maplibre-internals';

/**
 * What maplibre-internals.ts (and the worker script json-text-worker.js) rely on, checked against the
 * installed maplibre-gl: its readable build (dist/maplibre-gl-dev.js, the same code as the minified one
 * the app bundles) and its classes. An upgrade that renames or reshapes any of these fails here, by name,
 * before a browser shows a blank or wrong map.
 */
const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve('maplibre-gl/package.json'));
const installed = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const source = fs.readFileSync(path.join(root, 'dist', 'maplibre-gl-dev.js'), 'utf8');
const workerSource = fs.readFileSync(path.join(root, 'dist', 'maplibre-gl-csp-worker-dev.js'), 'utf8');

/** The body of the first method `name(` of the class `className` in the readable build. */
function method(className: string, signature: string): string {
  const at = source.indexOf(`class ${className} `);
  expect(at, `class ${className}`).toBeGreaterThanOrEqual(0);
  const start = source.indexOf(`    ${signature} {`, at);
  expect(start, `${className}#${signature}`).toBeGreaterThan(at);
  return source.slice(start, source.indexOf('\n    }\n', start));
}

describe('maplibre-gl internals (issue 45)', () => {
  it('is pinned to one exact version, the one installed and the one the internals were written for', () => {
    const pinned = (clientPackage as { dependencies: Record<string, string> }).dependencies['maplibre-gl'];
    expect(pinned).toBe(MAPLIBRE_VERSION);
    expect(installed).toBe(MAPLIBRE_VERSION);
  });

  it('Map#_update and Style#addSource/addLayer skip validation with { validate: false } (unchecked layers)', async () => {
    const maplibre = (await import('maplibre-gl')) as unknown as {
      default?: { Map: { prototype: Record<string, unknown> } };
      Map?: { prototype: Record<string, unknown> };
    };
    const MapClass = maplibre.Map ?? maplibre.default!.Map;
    expect(typeof MapClass.prototype._update).toBe('function');
    expect(method('Map', '_update(updateStyle)')).toContain('this._styleDirty');
    expect(method('Style', 'addSource(id, source, options = {})')).toMatch(/this\._validate\([^)]*options\)/);
    expect(method('Style', 'addLayer(layerObject, before, options = {})')).toMatch(/this\._validate\([^)]*options\)/);
    expect(method('Style', '_validate(validate, key, value, props, options = {})')).toContain('.validate) === false');
  });

  it('Texture uploads raw pixels through _uploadRawData/_updateRawData with these arguments (native premultiply)', () => {
    const update = method('Texture', 'update(image, options, position)');
    expect(update).toContain('this._uploadRawData(image, wantPremultiply, width, height, gl)');
    expect(update).toContain('this._updateRawData(image, wantPremultiply, x, y, width, height, gl)');
    expect(update).toContain('context.pixelStoreUnpackPremultiplyAlpha.setDefault()');
    expect(method('ImageManager', 'bind(context)')).toContain('this.atlasTexture = new');
  });

  it("Style tells its workers the image list with the 'SI' message and _availableImages (quiet images)", () => {
    expect(source).toContain('this.dispatcher.broadcast("SI" /* MessageType.setImages */, this._availableImages)');
    expect(method('Dispatcher', 'broadcast(type, data)')).toContain('actor.sendAsync');
  });

  it('Painter keeps drawFunctions.sky, renderLayer(painter, tileManager, layer, ...) and context.gl (no sky, staged reveal)', () => {
    expect(source).toContain('this.drawFunctions.sky(this, this.style.sky)');
    expect(method('Painter', 'renderLayer(painter, tileManager, layer, coords, renderOptions)')).toContain('layer.type');
    expect(source).toMatch(/class Context \{[\s\S]{0,400}this\.gl = gl;/);
  });

  it('GeoJSONSource keeps its data as _data.geojson, and the worker answers loadData as "LD" on self.worker.actor (JSON text)', () => {
    expect(method('GeoJSONSource', 'setData(data, waitForCompletion)')).toContain(
      "this._data = typeof data === 'string' ? { url: data } : { geojson: data }",
    );
    expect(workerSource).toContain('this.actor.registerMessageHandler("LD" /* MessageType.loadData */');
    expect(workerSource).toContain('self.worker = new Worker(self)');
    expect(workerSource).toMatch(/this\.messageHandlers\[type\] = handler/);
  });
});
