import type { GeoJSONSource, Map as MaplibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useRef } from 'react';

/**
 * Keeps a GeoJSON source's data at `data`. The returned function gives the data to create the source
 * with: data already there when the layer mounts goes into `addSource` itself instead of an empty
 * collection followed by `setData`, which would tile the source twice and draw a frame for each (on a
 * software rasteriser each start-up frame blocks the page's main thread).
 */
export function useSourceData(map: MaplibreMap, source: string, data: object): () => GeoJSON.GeoJSON {
  const latest = useRef(data);
  latest.current = data;
  const sent = useRef<object | null>(null);
  useEffect(() => {
    if (sent.current === data) return;
    sent.current = data;
    (map.getSource(source) as GeoJSONSource | undefined)?.setData(data as GeoJSON.GeoJSON);
  }, [map, source, data]);
  return useCallback(() => {
    sent.current = latest.current;
    return latest.current as GeoJSON.GeoJSON;
  }, []);
}
