import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { $counties } from '../../../entities/county';
import { readPalette } from '../lib/palette';
import { useOfflineMap } from './map-context';
import { addLayerUnchecked, addSourceUnchecked } from './maplibre-internals';
import { useSourceData } from './use-source-data';

const SOURCE = 'counties';
export const COUNTY_LINE_LAYER = 'county-line';

/** County outlines from GET /api/v1/location, as lines (a fill would cost a full-screen pass per frame). */
export function CountyLayer() {
  const map = useOfflineMap();
  const counties = useUnit($counties);
  const initialData = useSourceData(map, SOURCE, counties);

  useEffect(() => {
    const palette = readPalette();
    addSourceUnchecked(map, SOURCE, { type: 'geojson', data: initialData() });
    addLayerUnchecked(map, {
      id: COUNTY_LINE_LAYER,
      type: 'line',
      source: SOURCE,
      paint: {
        'line-color': palette.countyLine,
        'line-width': ['interpolate', ['linear'], ['zoom'], 5, 0.6, 12, 1.6],
        'line-opacity': 0.9,
      },
    });
    return () => {
      if (!map.style) return;
      map.removeLayer(COUNTY_LINE_LAYER);
      map.removeSource(SOURCE);
    };
  }, [map, initialData]);

  return null;
}
