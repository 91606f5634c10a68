import type { Map as MaplibreMap } from 'maplibre-gl';
import { createContext, useContext } from 'react';

/** The MapLibre map of the offline provider, given to its layers through context (never a module singleton). */
export const OfflineMapContext = createContext<MaplibreMap | null>(null);

export function useOfflineMap(): MaplibreMap {
  const map = useContext(OfflineMapContext);
  if (!map) throw new Error('An offline map layer was rendered outside <OfflineMap>');
  return map;
}

/**
 * MapLibre's zoom is on a 512 px tile scale, one level below Google's 256 px scale that the spec's
 * numbers (10, 4, 15) are written in.
 */
export const toGlZoom = (specZoom: number) => specZoom - 1;
export const toSpecZoom = (glZoom: number) => glZoom + 1;
