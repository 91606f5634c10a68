import type { GeoJSONSource, GeoJSONSourceDiff, Map as MaplibreMap } from 'maplibre-gl';
import { useCallback, useEffect, useRef } from 'react';
import { afterJsonText, jsonTextWaiting, setDataAsText, setJsonBytes } from './json-text';

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * Keeps a GeoJSON source's data at `data`. The returned function gives the data to create the source
 * with: data already there when the layer mounts goes into `addSource` itself instead of an empty
 * collection followed by `setData`, which would tile the source twice and draw a frame for each (on a
 * software rasteriser each start-up frame blocks the page's main thread).
 *
 * `diff(previous, next)`, when given, says what changed since the data the source has (the pins: a live
 * change of a few devices), which goes to the worker as MapLibre's `updateData`; null sends the whole data.
 * `json(data)`, when given, is the data's GeoJSON as UTF-8 JSON bytes, moved to the map's worker (the pins
 * come so from their worker); `data` itself is then not GeoJSON, and the hand-over must be 'next-task'. Bytes
 * moved once cannot be sent again: `gone()` is called (the source made again with data already handed over),
 * and the next data is sent whole. `beforeWhole()`, when given, is called right before whole data is sent
 * (the pins: the map draws them hidden behind its current picture, offline-map.tsx).
 *
 * `handOver: 'next-task'` creates the source empty and sends the data in a task of its own right after
 * (the fleet's pins): MapLibre copies a source's data to its worker as it is set (serialising every
 * feature object in JavaScript, then posting it), and 10,000 pins copied in the task that set up the map's layers made that task one of
 * over 200 ms under a 4x CPU slowdown (tests/perf/map-trace.ts --devices 10000); the pins' layers now have
 * a task of their own (offline-map.tsx), and the copy stays out of it too. The empty source
 * costs its worker nothing, and the loading map draws no frame in between (its frames are spaced, and its
 * layers join only once every source has loaded: offline-map.tsx).
 */
/** False when the data's bytes were handed over before (setJsonBytes): the caller asks for the data anew. */
function sendData<T>(target: GeoJSONSource, data: T, json: ((data: T) => Uint8Array) | undefined): boolean {
  if (json) return setJsonBytes(target, json(data));
  setDataAsText(target, data as GeoJSON.GeoJSON);
  return true;
}

export function useSourceData<T extends object>(
  map: MaplibreMap,
  source: string,
  data: T,
  handOver: 'with-source' | 'next-task' = 'with-source',
  diff?: (previous: T, next: T) => GeoJSONSourceDiff | null,
  json?: (data: T) => Uint8Array,
  gone?: () => void,
  beforeWhole?: () => void,
): () => GeoJSON.GeoJSON {
  const beforeWholeOf = useRef(beforeWhole);
  beforeWholeOf.current = beforeWhole;
  const goneOf = useRef(gone);
  goneOf.current = gone;
  const jsonOf = useRef(json);
  jsonOf.current = json;
  const latest = useRef(data);
  latest.current = data;
  const sent = useRef<T | null>(null);
  const diffOf = useRef(diff);
  diffOf.current = diff;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);
  // Data whose bytes are gone is forgotten, so the data asked for anew goes whole, not as a diff from it.
  const send = useCallback((target: GeoJSONSource, data: T) => {
    beforeWholeOf.current?.();
    if (sendData(target, data, jsonOf.current)) return;
    sent.current = null;
    goneOf.current?.();
  }, []);
  /**
   * Sends the latest data whole in a task of its own, once the map's workers read JSON text (json-text.ts);
   * changes that come meanwhile wait for it, and it sends the latest.
   */
  const sendLater = useCallback(() => {
    if (pending.current !== null) clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      afterJsonText(() => {
        if (!mounted.current) return;
        pending.current = null;
        const target = map.getSource(source) as GeoJSONSource | undefined;
        if (target) send(target, sent.current as T);
      });
    }, 0);
  }, [map, source, send]);
  useEffect(() => {
    const previous = sent.current;
    if (previous === data) return;
    sent.current = data;
    // A hand-over about to run sends the latest data.
    if (pending.current !== null) return;
    const target = map.getSource(source) as GeoJSONSource | undefined;
    if (!target) return;
    // What changed since the data the source has, when the caller can say (the pins: a live change of a
    // few devices); MapLibre applies diffs after any data it has not sent its worker yet, in order.
    const change = previous && diffOf.current ? diffOf.current(previous, data) : null;
    if (!change && jsonTextWaiting()) sendLater();
    else if (!change) send(target, data);
    else if (change.remove?.length || change.add?.length || change.update?.length) target.updateData(change);
  }, [map, source, data, sendLater, send]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (pending.current !== null) clearTimeout(pending.current);
      pending.current = null;
    };
  }, []);
  return useCallback(() => {
    sent.current = latest.current;
    if (handOver === 'with-source') return latest.current as GeoJSON.GeoJSON;
    sendLater();
    return EMPTY;
  }, [handOver, sendLater]);
}
