import type { MapSourceDataEvent } from 'maplibre-gl';
import { useEffect } from 'react';
import { basemapUrl } from 'virtual:fleet-basemap';
import { readPalette } from '../lib/palette';
import { BASEMAP_MAX_ZOOM, BASEMAP_SOURCE_LAYER } from '../lib/basemap-tiles';
import { useOfflineMap } from './map-context';
import { addLayerUnchecked, addSourceUnchecked } from './maplibre-internals';

const SOURCE = 'basemap';
/** The basemap's layer ids (offline-map.tsx reveals them in this order: water, then the borders). */
export const WATER = 'basemap-water';
export const BORDERS = 'basemap-borders';

/**
 * Land and water, US state and county (parish) borders under everything else: vector tiles made at build
 * time from world-atlas and us-atlas into one PMTiles archive (client/vite-basemap.ts), read by byte ranges
 * through the pmtiles protocol (offline-map.tsx registers it): the header and directory once, then the few
 * tiles the view needs, which MapLibre's worker decodes. Tiled down to zoom 6 and magnified above. One
 * source, so water and borders arrive in the same tiles (one frame each, not two). Renders nothing; a
 * failed download leaves the plain map as before.
 */
export function BasemapLayer() {
  const map = useOfflineMap();

  useEffect(() => {
    const palette = readPalette();
    const container = map.getContainer();
    container.dataset.basemap = 'loading';
    const archive = new URL(basemapUrl, window.location.href).href;
    addSourceUnchecked(map, SOURCE, {
      type: 'vector',
      tiles: [`pmtiles://${archive}/{z}/{x}/{y}`],
      minzoom: 0,
      maxzoom: BASEMAP_MAX_ZOOM,
    });
    // Each under the fleet's own layers (its county outlines, the pins), in this order.
    addLayerUnchecked(
      map,
      {
        id: WATER,
        type: 'fill',
        source: SOURCE,
        'source-layer': BASEMAP_SOURCE_LAYER,
        filter: ['==', ['get', 'kind'], 'water'],
        paint: { 'fill-color': palette.water, 'fill-antialias': false },
      },
      firstFleetLayer(map),
    );
    addLayerUnchecked(
      map,
      {
        id: `${BORDERS}-county`,
        type: 'line',
        source: SOURCE,
        'source-layer': BASEMAP_SOURCE_LAYER,
        minzoom: 5,
        filter: ['==', ['get', 'kind'], 'county'],
        paint: {
          'line-color': palette.countyLine,
          'line-width': 0.6,
          'line-opacity': ['interpolate', ['linear'], ['zoom'], 5, 0.25, 9, 0.5],
          'line-dasharray': [3, 2],
        },
      },
      firstFleetLayer(map),
    );
    addLayerUnchecked(
      map,
      {
        id: `${BORDERS}-state`,
        type: 'line',
        source: SOURCE,
        'source-layer': BASEMAP_SOURCE_LAYER,
        filter: ['==', ['get', 'kind'], 'state'],
        paint: { 'line-color': palette.countyLine, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 1, 10, 2.4] },
      },
      firstFleetLayer(map),
    );
    // Ready once the source is set up (its metadata event), whatever tiles the view needs.
    const onData = (event: MapSourceDataEvent) => {
      if (event.sourceDataType !== 'metadata' || event.sourceId !== SOURCE) return;
      if (container.dataset.basemap === 'loading') container.dataset.basemap = 'ready';
    };
    const onError = (event: { sourceId?: string }) => {
      if (event.sourceId === SOURCE) container.dataset.basemap = 'failed';
    };
    map.on('sourcedata', onData);
    map.on('error', onError);
    return () => {
      map.off('sourcedata', onData);
      map.off('error', onError);
      if (!map.style) return;
      for (const layer of [`${BORDERS}-state`, `${BORDERS}-county`, WATER]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  return null;
}

/** The first layer of the fleet (county outlines, pins): the basemap goes under it. */
function firstFleetLayer(map: ReturnType<typeof useOfflineMap>): string | undefined {
  // The layer ids in order, not getStyle() (which serialises the whole style, sources' data included).
  return map.getLayersOrder().find((id) => !id.startsWith('basemap-'));
}
