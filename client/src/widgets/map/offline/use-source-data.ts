import type { GeoJSONSource, Map as MaplibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useRef } from 'react';

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * Keeps a GeoJSON source's data at `data`. The returned function gives the data to create the source
 * with: data already there when the layer mounts goes into `addSource` itself instead of an empty
 * collection followed by `setData`, which would tile the source twice and draw a frame for each (on a
 * software rasteriser each start-up frame blocks the page's main thread).
 *
 * `handOver: 'next-task'` creates the source empty and sends the data in a task of its own right after
 * (the fleet's pins): MapLibre copies a source's data to its worker as it is set (a structured clone of
 * every feature), and 10,000 pins copied in the task that set up the map's layers made that task one of
 * over 200 ms under a 4x CPU slowdown (tests/perf/map-trace.ts --devices 10000); the pins' layers now have
 * a task of their own (offline-map.tsx), and the copy stays out of it too. The empty source
 * costs its worker nothing, and the loading map draws no frame in between (its frames are spaced, and its
 * layers join only once every source has loaded: offline-map.tsx).
 */
export function useSourceData(map: MaplibreMap, source: string, data: object, handOver: 'with-source' | 'next-task' = 'with-source'): () => GeoJSON.GeoJSON {
  const latest = useRef(data);
  latest.current = data;
  const sent = useRef<object | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (sent.current === data) return;
    sent.current = data;
    // A hand-over about to run sends the latest data.
    if (pending.current !== null) return;
    (map.getSource(source) as GeoJSONSource | undefined)?.setData(data as GeoJSON.GeoJSON);
  }, [map, source, data]);
  useEffect(
    () => () => {
      if (pending.current !== null) clearTimeout(pending.current);
      pending.current = null;
    },
    [],
  );
  return useCallback(() => {
    sent.current = latest.current;
    if (handOver === 'with-source') return latest.current as GeoJSON.GeoJSON;
    if (pending.current !== null) clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      pending.current = null;
      (map.getSource(source) as GeoJSONSource | undefined)?.setData(sent.current as GeoJSON.GeoJSON);
    }, 0);
    return EMPTY;
  }, [map, source, handOver]);
}
