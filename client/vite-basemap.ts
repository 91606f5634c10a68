import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin, ResolvedConfig } from 'vite';
import { usBorders, waterOf } from './src/widgets/map/lib/basemap.ts';

const MODULE = 'virtual:fleet-basemap';
const RESOLVED = `\0${MODULE}`;
/** 4 decimals is about 11 m: finer than the 1:50m land and 1:10m borders it comes from. */
const DIGITS = 4;

/**
 * The offline basemap's GeoJSON, made once at build time from world-atlas and us-atlas (lib/basemap.ts)
 * instead of in the browser: the map's web worker fetches and tiles the files itself, so the page's main
 * thread never downloads, parses or converts the TopoJSON (about a second of one task under Lighthouse's
 * mobile CPU). `import { basemapUrl } from 'virtual:fleet-basemap'` gives its address: a hashed file beside
 * the app in a build (precompressed like any asset), served from memory by the dev server. One file, so one
 * source: water, state and county borders arrive in the same tiles and the map draws them in one frame
 * (on a software rasteriser every frame at start-up blocks the main thread; two sources drew twice).
 */
export function basemap(): Plugin {
  let config: ResolvedConfig;
  let files: { basemap: File } | null = null;
  const build = () => (files ??= make());
  return {
    name: 'fleet-basemap',
    configResolved(resolved) {
      config = resolved;
    },
    resolveId: (id) => (id === MODULE ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      return `export const basemapUrl = ${JSON.stringify(config.base + build().basemap.fileName)};\n`;
    },
    generateBundle() {
      for (const file of Object.values(build())) this.emitFile({ type: 'asset', fileName: file.fileName, source: file.source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = Object.values(build()).find((f) => req.url === config.base + f.fileName);
        if (!file) return next();
        res.setHeader('content-type', 'application/json');
        res.end(file.source);
      });
    },
  };
}

type File = { fileName: string; source: string };

function make(): { basemap: File } {
  const require = createRequire(import.meta.url);
  const read = (name: string) => JSON.parse(fs.readFileSync(require.resolve(name), 'utf8'));
  const round = (_key: string, value: unknown) => (typeof value === 'number' ? Math.round(value * 10 ** DIGITS) / 10 ** DIGITS : value);
  const file = (name: string, data: unknown): File => {
    const source = JSON.stringify(data, round);
    const hash = crypto.createHash('sha256').update(source).digest('base64url').slice(0, 8);
    return { fileName: `assets/${name}-${hash}.json`, source };
  };
  // Features tell themselves apart by their `kind` (water, state, county): the layers filter on it.
  const water = waterOf(read('world-atlas/land-50m.json'));
  const borders = usBorders(read('us-atlas/counties-10m.json'));
  return { basemap: file('basemap', { type: 'FeatureCollection', features: [water, ...borders.features] }) };
}
