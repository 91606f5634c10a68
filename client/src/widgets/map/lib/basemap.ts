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
const clampRing = (ring: Ring): Ring =>
  ring.map(([lng, lat]) => [lng, Math.max(-WORLD_LAT + 0.1, Math.min(WORLD_LAT - 0.1, lat))]);

/**
 * Water as one polygon: the world with every land outline cut out. The container's background is the
 * land colour, so only water is filled, which on the fleet's coasts is a fraction of the screen (a full
 * land fill would cost a whole-screen pass per frame on software WebGL).
 */
export function waterOf(topology: LandTopology): GeoJSON.Feature<GeoJSON.Polygon> {
  const land = feature(topology, topology.objects.land) as
    GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon> | GeoJSON.Feature<GeoJSON.Polygon | GeoJSON.MultiPolygon>;
  const features = 'features' in land ? land.features : [land];
  const outlines: Ring[] = [];
  for (const f of features) {
    const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const polygon of polygons) if (polygon[0]) outlines.push(...splitAtAntimeridian(polygon[0] as Ring));
  }
  const holes = withoutNested(outlines).map(clampRing);
  const world: Ring = [
    [-180, -WORLD_LAT],
    [180, -WORLD_LAT],
    [180, WORLD_LAT],
    [-180, WORLD_LAT],
    [-180, -WORLD_LAT],
  ];
  return { type: 'Feature', properties: { kind: 'water' }, geometry: { type: 'Polygon', coordinates: [world, ...holes] } };
}

/**
 * world-atlas stitches land across the antimeridian (for d3-geo's sphere), so a few outlines (Russia with
 * Chukotka, Fiji, an island beside them) jump from 180° to -180° and back. Drawn flat, such a ring spans the
 * whole world: a band of 'land' across Alaska, Canada and Greenland that overlaps the other holes, and
 * overlapping holes make MapLibre's triangulation (earcut) fill whole tiles with water (north-east America at
 * zoom 4). Such a ring is cut at the antimeridian into one ring per side. A ring round the pole (one jump:
 * Antarctica) stays as it is: flat, it is a plain band along the bottom of the map.
 */
export function splitAtAntimeridian(ring: Ring): Ring[] {
  let jumps = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0] - ring[i - 1]![0]) > 180) jumps++;
  if (jumps === 0 || jumps % 2 === 1) return [ring];
  // Unwrapped: no two neighbours more than 180° apart, so the ring runs on past ±180° without a jump.
  const unwrapped: Ring = [];
  let shift = 0;
  for (const [lng, lat] of ring) {
    const previous = unwrapped[unwrapped.length - 1];
    if (previous && lng + shift - previous[0] > 180) shift -= 360;
    else if (previous && lng + shift - previous[0] < -180) shift += 360;
    unwrapped.push([lng + shift, lat]);
  }
  const east = unwrapped.some(([lng]) => lng > 180);
  const cut = east ? 180 : -180;
  const near = clipRing(unwrapped, cut, east ? 'below' : 'above');
  const beyond = clipRing(unwrapped, cut, east ? 'above' : 'below').map(([lng, lat]): [number, number] => [
    lng + (east ? -360 : 360),
    lat,
  ]);
  return [near, beyond].filter((r) => r.length >= 4);
}

/** The part of a closed ring on one side of a meridian (Sutherland-Hodgman against one line). */
function clipRing(ring: Ring, meridian: number, side: 'below' | 'above'): Ring {
  const keep = (lng: number) => (side === 'below' ? lng <= meridian : lng >= meridian);
  const out: Ring = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    if (keep(a[0])) out.push(a);
    if (keep(a[0]) !== keep(b[0])) out.push([meridian, a[1] + ((meridian - a[0]) / (b[0] - a[0])) * (b[1] - a[1])]);
  }
  if (out.length) out.push(out[0]!);
  return out;
}

/**
 * Land outlines not inside another one: islands in lakes (the lakes are not cut out of the land here, so
 * such an island is land on land). As holes of the water they would overlap their lake shore's hole, which
 * breaks the triangulation as above.
 */
function withoutNested(rings: Ring[]): Ring[] {
  type Box = [west: number, south: number, east: number, north: number];
  const boxes = rings.map((ring) =>
    ring.reduce<Box>(
      ([w, s, e, n], [lng, lat]) => [Math.min(w, lng), Math.min(s, lat), Math.max(e, lng), Math.max(n, lat)],
      [Infinity, Infinity, -Infinity, -Infinity],
    ),
  );
  const within = (i: number, j: number) => {
    const [inner, outer] = [boxes[i]!, boxes[j]!];
    return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
  };
  return rings.filter((ring, i) => !rings.some((other, j) => j !== i && within(i, j) && contains(other, ring[0]!)));
}

/** Whether a point lies inside a ring (ray casting). */
function contains(ring: Ring, [x, y]: [number, number]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
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
