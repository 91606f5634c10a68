import { sitesApi } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';

/** GET /api/v1/location: one county (parish) per row, its outline as a GeoJSON FeatureCollection string. */
export type LocationRow = { id: number; name: string; geoJson: string; centroid?: string | null; [field: string]: unknown };

export type CountyFeature = {
  type: 'Feature';
  id: number;
  properties: { id: number; name: string };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };
};
export type CountyCollection = { type: 'FeatureCollection'; features: CountyFeature[] };

export const countiesRequested = createEvent();
export const countiesCleared = createEvent();
export const fetchCountiesFx = createApiFx<void, LocationRow[]>(() => call(sitesApi.counties));

/**
 * The outlines of every county in one collection, parsed once. A row whose geoJson does not parse is
 * skipped (the rest still draw); its name comes from the row, else from the first feature's name_2.
 */
export function countyOutlines(rows: readonly LocationRow[]): CountyCollection {
  const features: CountyFeature[] = [];
  for (const row of rows) {
    let parsed: { features?: { properties?: { name_2?: string }; geometry?: CountyFeature['geometry'] }[] };
    try {
      parsed = JSON.parse(row.geoJson) as typeof parsed;
    } catch {
      continue;
    }
    for (const feature of parsed.features ?? []) {
      if (!feature.geometry || (feature.geometry.type !== 'Polygon' && feature.geometry.type !== 'MultiPolygon')) continue;
      const name = row.name || feature.properties?.name_2 || '';
      features.push({ type: 'Feature', id: row.id, properties: { id: row.id, name }, geometry: feature.geometry });
    }
  }
  return { type: 'FeatureCollection', features };
}

export const $counties = createStore<CountyCollection>({ type: 'FeatureCollection', features: [] });
$counties.on(fetchCountiesFx.doneData, (_, rows) => countyOutlines(rows)).reset(countiesCleared);
/** County id to name, for lists and cards (one map for every screen). */
export const $countyNames = $counties.map(
  (collection): ReadonlyMap<number, string> => new Map(collection.features.map((f) => [f.id, f.properties.name])),
);
sample({ clock: countiesRequested, fn: () => undefined, target: fetchCountiesFx });
