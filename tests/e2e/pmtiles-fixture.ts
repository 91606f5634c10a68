/**
 * A tiny PMTiles archive made in the test, for the MAP_STYLE_URL check: one vector tile (zoom 0) holding a
 * layer 'fixture' with one named polygon, written to the PMTiles v3 spec (a 127-byte header, a root
 * directory of one entry, JSON metadata, the tile; nothing compressed). The `pmtiles` package only reads
 * archives, so the few bytes are written here; the browser reads them back through that package's
 * MapLibre protocol, which is what the test is about. Nothing is downloaded.
 */

/** The fixture's polygon, in degrees: south of Lake Pontchartrain and west of New Orleans' east side, so its north and east edges cross the map's first view (zoom 10 over New Orleans). */
export const FIXTURE_AREA = { name: 'Fixture area', west: -92, south: 28, east: -89.9, north: 30.2 } as const;
export const FIXTURE_LAYER = 'fixture';

const EXTENT = 4096;

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
const zigzag = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n);
/** A protobuf field: its key (number, wire type) and, for length-delimited fields, the length. */
const field = (num: number, wire: number) => varint(num * 8 + wire);
const bytesField = (num: number, body: number[]) => [...field(num, 2), ...varint(body.length), ...body];
const text = (s: string) => [...Buffer.from(s, 'utf8')];

/** Web Mercator position of a longitude/latitude inside the zoom-0 tile, in tile units. */
function toTile(lng: number, lat: number): [number, number] {
  const x = ((lng + 180) / 360) * EXTENT;
  const r = (lat * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * EXTENT;
  return [Math.round(x), Math.round(y)];
}

/** One Mapbox Vector Tile (spec 2.1): layer 'fixture', one polygon feature with a 'name'. */
export function fixtureTile(): Buffer {
  const { west, south, east, north, name } = FIXTURE_AREA;
  // The outer ring clockwise in tile coordinates (y down): top left, top right, bottom right, bottom left.
  const ring = [toTile(west, north), toTile(east, north), toTile(east, south), toTile(west, south)];
  const geometry: number[] = [];
  let [cx, cy] = [0, 0];
  ring.forEach(([x, y], i) => {
    if (i === 0) geometry.push(1 | (1 << 3)); // MoveTo, one point
    if (i === 1) geometry.push(2 | ((ring.length - 1) << 3)); // LineTo, the rest
    geometry.push(zigzag(x - cx), zigzag(y - cy));
    [cx, cy] = [x, y];
  });
  geometry.push(7 | (1 << 3)); // ClosePath
  const feature = [
    ...field(1, 0), ...varint(1), // id
    ...bytesField(2, [...varint(0), ...varint(0)]), // tags: key 0 = value 0
    ...field(3, 0), ...varint(3), // POLYGON
    ...bytesField(4, geometry.flatMap(varint)),
  ];
  const layer = [
    ...field(15, 0), ...varint(2), // version
    ...bytesField(1, text(FIXTURE_LAYER)),
    ...bytesField(2, feature),
    ...bytesField(3, text('name')),
    ...bytesField(4, bytesField(1, text(name))), // Value { string_value }
    ...field(5, 0), ...varint(EXTENT),
  ];
  return Buffer.from(bytesField(3, layer));
}

/** The archive: header, root directory (the one tile), metadata (its vector layer), the tile. */
export function fixturePmtiles(): Buffer {
  const tile = fixtureTile();
  // Entry columns: count; tile id deltas; run lengths; lengths; offsets (+1 for the first).
  const root = Buffer.from([...varint(1), ...varint(0), ...varint(1), ...varint(tile.length), ...varint(1)]);
  const metadata = Buffer.from(JSON.stringify({ name: 'fixture', vector_layers: [{ id: FIXTURE_LAYER, fields: { name: 'String' }, minzoom: 0, maxzoom: 0 }] }));
  const header = Buffer.alloc(127);
  const rootOffset = 127;
  const metadataOffset = rootOffset + root.length;
  const dataOffset = metadataOffset + metadata.length;
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, dataOffset); // no leaf directories
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, tile.length);
  u64(72, 1); // addressed tiles
  u64(80, 1); // tile entries
  u64(88, 1); // tile contents
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // MVT
  header.writeUInt8(0, 100); // min zoom
  header.writeUInt8(0, 101); // max zoom: MapLibre draws the one tile over-zoomed at every zoom
  const e7 = (at: number, degrees: number) => header.writeInt32LE(Math.round(degrees * 1e7), at);
  e7(102, -180);
  e7(106, -85);
  e7(110, 180);
  e7(114, 85);
  header.writeUInt8(0, 118);
  e7(119, -90);
  e7(123, 30);
  return Buffer.concat([header, root, metadata, tile]);
}
