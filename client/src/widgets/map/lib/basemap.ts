import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline basemap from data that npm packages ship (no tiles, no key, no network beyond this
 * server): Natural Earth land (world-atlas) drawn as water around it, US state borders and county
 * (parish) borders (us-atlas). Pure functions from TopoJSON to GeoJSON, tested without a browser.
 */
type Ring = [number, number][];
type LandTopology = Topology<{ land: GeometryCollection }>;
type UsTopology = Topology<{ counties: GeometryCollection; states: GeometryCollection; nation: GeometryCollection }>;

/** The outer ring of the world for the water polygon; land rings become its holes. */
const WORLD_LAT = 89;
const clampRing = (ring: Ring): Ring => ring.map(([lng, lat]) => [lng, Math.max(-WORLD_LAT + 0.1, Math.min(WORLD_LAT - 0.1, lat))]);

/**
 * Water as one polygon: the world with every land outline cut out. The container's background is the
 * land colour, so only water is filled, which on the fleet's coasts is a fraction of the screen (a full
 * land fill would cost a whole-screen pass per frame on software WebGL).
 */
export function waterOf(topology: LandTopology): GeoJSON.Feature<GeoJSON.Polygon> {
  const land = feature(topology, topology.objects.land) as GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon> | GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>;
  const features = 'features' in land ? land.features : [land];
  const holes: Ring[] = [];
  for (const f of features) {
    const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const polygon of polygons) if (polygon[0]) holes.push(clampRing(polygon[0] as Ring));
  }
  const world: Ring = [
    [-180, -WORLD_LAT],
    [180, -WORLD_LAT],
    [180, WORLD_LAT],
    [-180, WORLD_LAT],
    [-180, -WORLD_LAT],
  ];
  return { type: 'Feature', properties: { kind: 'water' }, geometry: { type: 'Polygon', coordinates: [world, ...holes] } };
}

/** US state borders (between two states) and county borders inside a state, as lines. */
export function usBorders(topology: UsTopology): GeoJSON.FeatureCollection<GeoJSON.MultiLineString> {
  const state = (id: unknown) => String(id).slice(0, 2);
  const states = mesh(topology, topology.objects.states, (a, b) => a !== b);
  const counties = mesh(topology, topology.objects.counties, (a, b) => a !== b && state(a.id) === state(b.id));
  return {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: { kind: 'state' }, geometry: states },
      { type: 'Feature', properties: { kind: 'county' }, geometry: counties },
    ],
  };
}
