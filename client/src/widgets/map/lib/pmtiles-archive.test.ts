import { VectorTile } from '@mapbox/vector-tile';
import Protobuf from 'pbf';
import { PMTiles, TileType, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { pmtilesArchive, vectorTiles, type ArchiveTile } from './pmtiles-archive';

/** The archive read back by the `pmtiles` package, the reader the map uses, from memory. */
function reader(archive: Buffer): PMTiles {
  const source: Source = {
    getKey: () => 'memory',
    getBytes: async (offset, length) => ({
      data: archive.buffer.slice(archive.byteOffset + offset, archive.byteOffset + offset + length) as ArrayBuffer,
    }),
  };
  return new PMTiles(source);
}

// A square of water over New Orleans and a line beside it, tiled to zoom 3.
const square: GeoJSON.Feature = {
  type: 'Feature',
  properties: { kind: 'water' },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [-91, 29],
        [-89, 29],
        [-89, 31],
        [-91, 31],
        [-91, 29],
      ],
    ],
  },
};
const line: GeoJSON.Feature = {
  type: 'Feature',
  properties: { kind: 'county' },
  geometry: {
    type: 'LineString',
    coordinates: [
      [-95, 30],
      [-85, 30],
    ],
  },
};

const tilesOf = (features: GeoJSON.Feature[], maxZoom: number): ArchiveTile[] =>
  vectorTiles({ type: 'FeatureCollection', features }, 'basemap', maxZoom);

describe('PMTiles archive (the offline basemap, written at build time)', () => {
  it('is read back by the pmtiles package: every tile as written, nothing where there was none', async () => {
    const tiles = tilesOf([square, line], 3);
    const archive = reader(
      pmtilesArchive(tiles, { vectorLayers: [{ id: 'basemap', fields: { kind: 'String' } }], center: [-90, 30, 3] }),
    );
    const header = await archive.getHeader();
    expect(header).toMatchObject({
      specVersion: 3,
      minZoom: 0,
      maxZoom: 3,
      tileType: TileType.Mvt,
      numAddressedTiles: tiles.length,
      centerZoom: 3,
    });
    for (const tile of tiles) {
      const got = await archive.getZxy(tile.z, tile.x, tile.y);
      expect(new Uint8Array(got!.data)).toEqual(tile.data);
    }
    // Zoom 3 over the Pacific: no feature there, no tile.
    expect(await archive.getZxy(3, 0, 3)).toBeUndefined();
    expect(await archive.getMetadata()).toEqual({
      vector_layers: [{ id: 'basemap', fields: { kind: 'String' }, minzoom: 0, maxzoom: 3 }],
    });
  });

  it('holds the features a map layer reads, with their kind, in the tile over New Orleans', async () => {
    const archive = reader(
      pmtilesArchive(tilesOf([square, line], 3), {
        vectorLayers: [{ id: 'basemap', fields: { kind: 'String' } }],
        center: [-90, 30, 3],
      }),
    );
    // Zoom 3: New Orleans (-90.07, 29.95) is in tile x 1, y 3.
    const got = await archive.getZxy(3, 1, 3);
    const layer = new VectorTile(new Protobuf(new Uint8Array(got!.data))).layers.basemap!;
    const kinds = Array.from({ length: layer.length }, (_, i) => [layer.feature(i).properties.kind, layer.feature(i).type]);
    expect(kinds.sort()).toEqual([
      ['county', 2],
      ['water', 3],
    ]);
  });

  it('stores a repeated tile once and a run of them as one entry', async () => {
    // One polygon over the whole world: every tile at zoom 2 is the same full square.
    const world: GeoJSON.Feature = {
      type: 'Feature',
      properties: { kind: 'water' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-180, -85],
            [180, -85],
            [180, 85],
            [-180, 85],
            [-180, -85],
          ],
        ],
      },
    };
    const tiles = tilesOf([world], 2);
    const bytes = pmtilesArchive(tiles, { vectorLayers: [{ id: 'basemap', fields: { kind: 'String' } }], center: [0, 0, 0] });
    const header = await reader(bytes).getHeader();
    expect(header.numAddressedTiles).toBe(21);
    expect(header.numTileContents).toBeLessThan(header.numAddressedTiles);
    expect(header.numTileEntries).toBeLessThan(header.numAddressedTiles);
  });

  it('refuses to write nothing', () => {
    expect(() => pmtilesArchive([], { vectorLayers: [], center: [0, 0, 0] })).toThrow(/no tiles/);
  });
});
