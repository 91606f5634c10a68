import { createRequire } from 'node:module';
import fs from 'node:fs';
import { geoBounds, geoCentroid, geoContains } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

const require = createRequire(import.meta.url);

/**
 * US geography from the packaged us-atlas data set (no web service): county outlines for the portal's
 * locations (a new site's county, the demo's counties) and state names.
 */
let counties: FeatureCollection<Geometry, { name: string }> | undefined;

/** The real county outlines of the packaged us-atlas data set (US Census, 1:10m). */
export function usCounties(): FeatureCollection<Geometry, { name: string }> {
  if (!counties) {
    const topology = JSON.parse(fs.readFileSync(require.resolve('us-atlas/counties-10m.json'), 'utf8')) as Topology<{
      counties: GeometryCollection<{ name: string }>;
    }>;
    counties = feature(topology, topology.objects.counties) as FeatureCollection<Geometry, { name: string }>;
  }
  return counties;
}

export function countyByFips(fips: string): Feature<Geometry, { name: string }> {
  const f = usCounties().features.find((c) => c.id === fips);
  if (!f) throw new Error(`no county with FIPS ${fips} in us-atlas`);
  return f;
}

/**
 * The location (county) row of spec section 3: GeoJSON text whose first feature carries name_2,
 * and the centroid as 'POINT(lng lat)'.
 */
export function locationFromCounty(fips: string, displayName: string, state: string) {
  const county = countyByFips(fips);
  const collection: FeatureCollection = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', id: fips, properties: { name_2: displayName, name_1: state, fips }, geometry: county.geometry },
    ],
  };
  const [lng, lat] = geoCentroid(county);
  return {
    name: displayName,
    state,
    fips,
    geoJson: JSON.stringify(collection),
    centroid: `POINT(${lng.toFixed(6)} ${lat.toFixed(6)})`,
  };
}

let states: Map<string, string> | undefined;
/** The name of a US state by its two-digit FIPS code ('22': 'Louisiana'); '' when unknown. */
export function usStateName(fips: string): string {
  if (!states) {
    const topology = JSON.parse(fs.readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Topology<{
      states: GeometryCollection<{ name: string }>;
    }>;
    const fc = feature(topology, topology.objects.states) as FeatureCollection<Geometry, { name: string }>;
    states = new Map(fc.features.map((f: Feature<Geometry, { name: string }>) => [String(f.id), f.properties.name]));
  }
  return states.get(fips) ?? '';
}

let countyBounds:
  { feature: Feature<Geometry, { name: string }>; west: number; south: number; east: number; north: number }[] | undefined;

/** The packaged US county whose outline holds the point (a bounding-box pass first); undefined outside it (e.g. Australia). */
export function usCountyAt(lat: number, lng: number): Feature<Geometry, { name: string }> | undefined {
  countyBounds ??= usCounties().features.map((feature) => {
    const [[west, south], [east, north]] = geoBounds(feature) as [[number, number], [number, number]];
    return { feature, west, south, east, north };
  });
  const inBox = (b: { west: number; south: number; east: number; north: number }) =>
    lat >= b.south && lat <= b.north && (b.west <= b.east ? lng >= b.west && lng <= b.east : lng >= b.west || lng <= b.east);
  return countyBounds.find((b) => inBox(b) && geoContains(b.feature, [lng, lat]))?.feature;
}

/** A county's display name as the portal writes it: 'Orleans Parish' in Louisiana, '... Borough' in Alaska, else '... County'. */
export function countyDisplayName(county: Feature<Geometry, { name: string }>): { name: string; state: string } {
  const state = usStateName(String(county.id).slice(0, 2));
  const suffix = state === 'Louisiana' ? 'Parish' : state === 'Alaska' ? 'Borough' : 'County';
  return { name: `${county.properties.name} ${suffix}`, state };
}
