import type { GeoJSONSource } from 'maplibre-gl';
import { keepSourceData } from './maplibre-internals';
import jsonTextWorkerUrl from './json-text-worker.js?url&no-inline';

let ready: Promise<boolean> | null = null;
let enabled = false;
let settled = false;

/**
 * Teaches MapLibre's workers to read a GeoJSON source's data sent as JSON text (json-text-worker.js).
 * Call with MapLibre's importScriptInWorkers once the worker URL is set, before the first setDataAsText;
 * resolves false, and the data goes as objects, when the script could not be loaded into every worker.
 */
export function enableJsonText(importScriptInWorkers: (url: string) => Promise<unknown>): Promise<boolean> {
  ready ??= importScriptInWorkers(new URL(jsonTextWorkerUrl, window.location.href).href).then(
    () => (settled = enabled = true),
    () => ((settled = true), false),
  );
  return ready;
}

/**
 * Whether enableJsonText has been called and not yet settled: data sent now would go as objects (or be
 * parsed on the page's thread), so a whole data is better sent through afterJsonText. At 100,000 pins,
 * pins that came before MapLibre's workers had the script were parsed here: a task of 470 ms under a
 * 4x CPU slowdown (tests/perf/map-trace.ts --devices 100000).
 */
export const jsonTextWaiting = () => ready !== null && !settled;

/** Runs `send` once enableJsonText has settled (now when it was never called or has settled). */
export function afterJsonText(send: () => void) {
  if (!ready || enabled) send();
  else void ready.then(send);
}

/**
 * `source.setData(data)`, sent to the worker as its JSON text once the workers read it (enableJsonText).
 * MapLibre copies an object's every feature in JavaScript on this thread before posting it (10,000 pins:
 * 219 of a 237 ms task under a 4x CPU slowdown, tests/perf/map-trace.ts); the browser's own JSON.stringify
 * is a fraction of that, and a string is posted as it is. The source keeps the object as its copy of
 * the data (MapLibre applies later updateData diffs to it), as setData(data) would.
 */
export function setDataAsText(source: GeoJSONSource, data: GeoJSON.GeoJSON) {
  if (!enabled) {
    source.setData(data);
    return;
  }
  // A String object: MapLibre reads a plain string as a URL to fetch, and posts a String object as it is.
  source.setData(new String(JSON.stringify(data)) as unknown as GeoJSON.GeoJSON);
  keepSourceData(source, data);
}

/** The collection nothing reads: the source's page-side copy when its data went as bytes (setJsonBytes). */
const NO_COPY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/**
 * GeoJSON already as UTF-8 JSON bytes (the pins, from their worker) set as a source's data: posted and
 * transferred, not copied, once the workers read them (MapLibre transfers the buffer of a typed array it
 * posts); else parsed here. Posting the same JSON as a string was a copy in JavaScript's heap, 305 ms of the
 * page's thread at 100,000 pins under a 4x CPU slowdown, and a copy of the bytes kept for a later hand-over
 * 153 ms (tests/perf/map-trace.ts --devices 100000). So `json` is empty afterwards: false when it was already
 * (handed over before: a source made again, a map mounted again), and the caller asks for the data anew. The
 * source's page-side copy is left empty rather than parsed: MapLibre reads it only for getData and serialize,
 * which the map itself never calls, and applies later updateData diffs to it (an empty collection takes
 * them; the worker's copy is the one drawn). getData then answers the pins changed since the last whole data
 * (tests/e2e/live.test.ts reads a changed one).
 */
export function setJsonBytes(source: GeoJSONSource, json: Uint8Array): boolean {
  if (json.byteLength === 0) return false;
  if (!enabled) {
    source.setData(JSON.parse(new TextDecoder().decode(json)) as GeoJSON.GeoJSON);
    return true;
  }
  source.setData(json as unknown as GeoJSON.GeoJSON);
  keepSourceData(source, NO_COPY);
  return true;
}
