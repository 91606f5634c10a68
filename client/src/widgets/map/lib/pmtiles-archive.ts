import { gzipSync } from 'node:zlib';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from 'pmtiles';

/**
 * Writes a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) of vector
 * tiles, at build time (client/vite-basemap.ts): the `pmtiles` package only reads archives. One file the
 * browser reads by byte ranges (the header and directory once, then each tile it needs), so the map's
 * worker decodes a few small tiles instead of tiling the whole basemap's GeoJSON on every page load.
 * Identical tiles (open ocean, inland) are stored once, and runs of them are one directory entry. The
 * directory must fit the first 16 kB with the header (no leaf directories): ample for the basemap.
 */
export type ArchiveTile = { z: number; x: number; y: number; data: Uint8Array };
export type ArchiveOptions = {
  /** Vector layers for the metadata (TileJSON's vector_layers). */
  vectorLayers: { id: string; fields: Record<string, string> }[];
  /** The view the archive suggests: [lon, lat, zoom]. */
  center: [number, number, number];
};

/**
 * Every tile from zoom 0 to `maxZoom` over the world that holds a feature of `data`, as Mapbox Vector Tiles
 * (extent 4096) with one layer named `layer`. An empty tile is left out: the reader answers nothing for
 * it, which MapLibre draws as empty.
 */
export function vectorTiles(data: GeoJSON.FeatureCollection, layer: string, maxZoom: number): ArchiveTile[] {
  const index = new GeoJSONVT(data, { maxZoom, indexMaxZoom: maxZoom, indexMaxPoints: 0 });
  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tile = index.getTile(z, x, y);
        if (tile && tile.features.length > 0)
          tiles.push({ z, x, y, data: fromGeojsonVt({ [layer]: tile }, { version: 2, extent: 4096 }) });
      }
    }
  }
  return tiles;
}

const HEADER_BYTES = 127;
const ROOT_LIMIT = 16_384;
const GZIP = 2;
const MVT = 1;

type Entry = { tileId: number; offset: number; length: number; runLength: number };

export function pmtilesArchive(tiles: ArchiveTile[], options: ArchiveOptions): Buffer {
  if (tiles.length === 0) throw new Error('pmtilesArchive: no tiles');
  const sorted = tiles.map((t) => ({ ...t, tileId: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.tileId - b.tileId);
  // Tile data in tile-id order, each distinct content once (gzipped, as the header says).
  const chunks: Buffer[] = [];
  const offsets = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  const entries: Entry[] = [];
  for (const tile of sorted) {
    const gz = gzipSync(tile.data, { level: 9 });
    // The raw bytes as the key (gzip output is deterministic for the same input and level).
    const key = gz.toString('base64');
    let stored = offsets.get(key);
    if (!stored) {
      stored = { offset: dataLength, length: gz.length };
      offsets.set(key, stored);
      chunks.push(gz);
      dataLength += gz.length;
    }
    const last = entries[entries.length - 1];
    if (last && last.offset === stored.offset && last.tileId + last.runLength === tile.tileId) last.runLength += 1;
    else entries.push({ tileId: tile.tileId, offset: stored.offset, length: stored.length, runLength: 1 });
  }
  const root = gzipSync(directory(entries), { level: 9 });
  if (HEADER_BYTES + root.length > ROOT_LIMIT)
    throw new Error(
      `pmtilesArchive: the directory (${root.length} bytes) does not fit the first 16 kB; fewer zoom levels or leaf directories needed`,
    );
  const zooms = tiles.map((t) => t.z);
  const minZoom = Math.min(...zooms);
  const maxZoom = Math.max(...zooms);
  const metadata = gzipSync(
    Buffer.from(
      JSON.stringify({ vector_layers: options.vectorLayers.map((l) => ({ ...l, minzoom: minZoom, maxzoom: maxZoom })) }),
    ),
    { level: 9 },
  );

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const dataOffset = metadataOffset + metadata.length;
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, dataOffset); // no leaf directories: an empty section where the tile data starts
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, sorted.length); // addressed tiles
  u64(80, entries.length); // tile entries
  u64(88, chunks.length); // distinct tile contents
  header.writeUInt8(1, 96); // clustered: tile data in tile-id order (repeats point back)
  header.writeUInt8(GZIP, 97); // internal compression (directory, metadata)
  header.writeUInt8(GZIP, 98); // tile compression
  header.writeUInt8(MVT, 99);
  header.writeUInt8(minZoom, 100);
  header.writeUInt8(maxZoom, 101);
  const e7 = (at: number, degrees: number) => header.writeInt32LE(Math.round(degrees * 1e7), at);
  e7(102, -180);
  e7(106, -85);
  e7(110, 180);
  e7(114, 85);
  header.writeUInt8(options.center[2], 118);
  e7(119, options.center[0]);
  e7(123, options.center[1]);
  return Buffer.concat([header, root, metadata, ...chunks]);
}

/** A directory as the spec encodes it: the count, then each column of varints (ids and offsets as deltas). */
function directory(entries: Entry[]): Buffer {
  const out: number[] = [];
  const varint = (value: number) => {
    let v = value;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  };
  varint(entries.length);
  let lastId = 0;
  for (const e of entries) {
    varint(e.tileId - lastId);
    lastId = e.tileId;
  }
  for (const e of entries) varint(e.runLength);
  for (const e of entries) varint(e.length);
  entries.forEach((e, i) => {
    const previous = entries[i - 1];
    // 0: right after the previous entry's bytes; otherwise the offset plus one.
    varint(previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1);
  });
  return Buffer.from(out);
}
