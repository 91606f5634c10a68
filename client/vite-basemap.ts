import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin, ResolvedConfig } from 'vite';
import { usBorders, waterOf } from './src/widgets/map/lib/basemap.ts';
import { BASEMAP_MAX_ZOOM as MAX_ZOOM, BASEMAP_SOURCE_LAYER } from './src/widgets/map/lib/basemap-tiles.ts';
import { pmtilesArchive, vectorTiles } from './src/widgets/map/lib/pmtiles-archive.ts';

const MODULE = 'virtual:fleet-basemap';
const RESOLVED = `\0${MODULE}`;

/**
 * The offline basemap as vector tiles, made once at build time from world-atlas and us-atlas
 * (lib/basemap.ts) into one PMTiles archive (lib/pmtiles-archive.ts): the browser reads its header and
 * directory, then only the few tiles a view needs, by byte ranges, and the map's worker decodes those.
 * Before, the worker fetched the whole basemap as GeoJSON (1.7 MB, 91,000 points) and tiled all of it on
 * every page load: about 0.6 s of the worker's CPU a signed-in load in the test browser, a third of what
 * Chromium spent on one. `import { basemapUrl } from 'virtual:fleet-basemap'` gives its address: a hashed
 * file beside the app in a build, served from memory (with byte ranges) by the dev server. One archive, so
 * one source: water, state and county borders arrive in the same tiles and are drawn in one frame.
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
        // The pmtiles reader asks for byte ranges, as the server's static files answer them.
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
        res.setHeader('content-type', 'application/octet-stream');
        res.setHeader('accept-ranges', 'bytes');
        if (!range) return res.end(file.source);
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : file.source.length - 1, file.source.length - 1);
        res.statusCode = 206;
        res.setHeader('content-range', `bytes ${start}-${end}/${file.source.length}`);
        res.end(file.source.subarray(start, end + 1));
      });
    },
  };
}

type File = { fileName: string; source: Buffer };

function make(): { basemap: File } {
  const require = createRequire(import.meta.url);
  const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
  // Features tell themselves apart by their `kind` (water, state, county): the layers filter on it.
  const water = waterOf(read(require.resolve('world-atlas/land-50m.json')));
  const borders = usBorders(read(require.resolve('us-atlas/counties-10m.json')));
  const tiles = vectorTiles(
    { type: 'FeatureCollection', features: [water, ...borders.features] },
    BASEMAP_SOURCE_LAYER,
    MAX_ZOOM,
  );
  const source = pmtilesArchive(tiles, {
    vectorLayers: [{ id: BASEMAP_SOURCE_LAYER, fields: { kind: 'String' } }],
    center: [-90.07, 29.95, 4],
  });
  const hash = crypto.createHash('sha256').update(source).digest('base64url').slice(0, 8);
  return { basemap: { fileName: `assets/basemap-${hash}.pmtiles`, source } };
}
