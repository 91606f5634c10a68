/**
 * A tiny PMTiles archive made in the test, for the MAP_STYLE_URL check: vector tiles at zoom 0 holding a
 * layer 'fixture' with one named polygon, written by the same writer the build uses for the built-in
 * basemap (client/src/widgets/map/lib/pmtiles-archive.ts). The browser reads it back through the `pmtiles`
 * package's MapLibre protocol, from the operator's host, which is what the test is about. Nothing is
 * downloaded.
 */
import { pmtilesArchive, vectorTiles } from '../../client/src/widgets/map/lib/pmtiles-archive.ts';

/** The fixture's polygon, in degrees: south of Lake Pontchartrain and west of New Orleans' east side, so its north and east edges cross the map's first view (zoom 10 over New Orleans). */
export const FIXTURE_AREA = { name: 'Fixture area', west: -92, south: 28, east: -89.9, north: 30.2 } as const;
export const FIXTURE_LAYER = 'fixture';

/** The archive: one zoom-0 tile, which MapLibre draws over-zoomed at every zoom. */
export function fixturePmtiles(): Buffer {
  const { west, south, east, north, name } = FIXTURE_AREA;
  const area: GeoJSON.Feature = {
    type: 'Feature',
    properties: { name },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [west, south],
          [east, south],
          [east, north],
          [west, north],
          [west, south],
        ],
      ],
    },
  };
  const tiles = vectorTiles({ type: 'FeatureCollection', features: [area] }, FIXTURE_LAYER, 0);
  return pmtilesArchive(tiles, { vectorLayers: [{ id: FIXTURE_LAYER, fields: { name: 'String' } }], center: [-90, 30, 0] });
}
