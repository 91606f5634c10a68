import { useEffect } from 'react';
import landUrl from 'world-atlas/land-50m.json?url';
import usUrl from 'us-atlas/counties-10m.json?url';
import { usBorders, waterOf } from '../lib/basemap';
import { readPalette } from '../lib/palette';
import { useOfflineMap } from './map-context';

const WATER = 'basemap-water';
const BORDERS = 'basemap-borders';

/**
 * Land and water, US state and county (parish) borders under everything else, from the TopoJSON files
 * of world-atlas and us-atlas that the build copies beside the app (about 1.4 MB, cached by the browser
 * like any asset). Renders nothing; a failed download leaves the plain map as before.
 */
export function BasemapLayer() {
  const map = useOfflineMap();

  useEffect(() => {
    let live = true;
    const palette = readPalette();
    const load = async () => {
      const [land, us] = await Promise.all([fetch(landUrl).then((r) => r.json()), fetch(usUrl).then((r) => r.json())]);
      if (!live || !map.style) return;
      map.addSource(WATER, { type: 'geojson', data: waterOf(land) });
      map.addSource(BORDERS, { type: 'geojson', data: usBorders(us) });
      // Each under the fleet's own layers (its county outlines, the pins), in this order.
      map.addLayer({ id: WATER, type: 'fill', source: WATER, paint: { 'fill-color': palette.water, 'fill-antialias': false } }, firstFleetLayer(map));
      map.addLayer(
        {
          id: `${BORDERS}-county`,
          type: 'line',
          source: BORDERS,
          minzoom: 5,
          filter: ['==', ['get', 'kind'], 'county'],
          paint: { 'line-color': palette.countyLine, 'line-width': 0.6, 'line-opacity': ['interpolate', ['linear'], ['zoom'], 5, 0.25, 9, 0.5], 'line-dasharray': [3, 2] },
        },
        firstFleetLayer(map),
      );
      map.addLayer(
        {
          id: `${BORDERS}-state`,
          type: 'line',
          source: BORDERS,
          filter: ['==', ['get', 'kind'], 'state'],
          paint: { 'line-color': palette.countyLine, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 1, 10, 2.4] },
        },
        firstFleetLayer(map),
      );
      map.getContainer().dataset.basemap = 'ready';
    };
    load().catch(() => {
      if (live) map.getContainer().dataset.basemap = 'failed';
    });
    return () => {
      live = false;
      if (!map.style) return;
      for (const layer of [`${BORDERS}-state`, `${BORDERS}-county`, WATER]) if (map.getLayer(layer)) map.removeLayer(layer);
      for (const source of [BORDERS, WATER]) if (map.getSource(source)) map.removeSource(source);
    };
  }, [map]);

  return null;
}

/** The first layer of the fleet (county outlines, pins): the basemap goes under it. */
function firstFleetLayer(map: ReturnType<typeof useOfflineMap>): string | undefined {
  return map.getStyle().layers.find((l) => !l.id.startsWith('basemap-'))?.id;
}
