import type { GeoJSONSource } from 'maplibre-gl';
import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { $counties } from '../../../entities/county';
import { readPalette } from '../lib/palette';
import { useOfflineMap } from './map-context';

const SOURCE = 'counties';

/** County outlines from GET /api/v1/location, as lines (a fill would cost a full-screen pass per frame). */
export function CountyLayer() {
  const map = useOfflineMap();
  const counties = useUnit($counties);

  useEffect(() => {
    const palette = readPalette();
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: 'county-line',
      type: 'line',
      source: SOURCE,
      paint: { 'line-color': palette.countyLine, 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 0.6, 12, 1.6], 'line-opacity': 0.9 },
    });
    return () => {
      if (!map.style) return;
      map.removeLayer('county-line');
      map.removeSource(SOURCE);
    };
  }, [map]);

  useEffect(() => {
    (map.getSource(SOURCE) as GeoJSONSource | undefined)?.setData(counties as unknown as GeoJSON.FeatureCollection);
  }, [map, counties]);

  return null;
}
