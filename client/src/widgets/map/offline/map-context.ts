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

/** What the map has drawn may have changed: the view moved or resized, a source's data or tiles, the style (a filter). */
const DRAWN_CHANGES = ['move', 'resize', 'sourcedata', 'styledata'] as const;

/**
 * Runs `refresh` after the map's idle events, only when what it reads may have changed since it last ran
 * (see DRAWN_CHANGES, or `changed()` for inputs of its own). The HTML overlays placed from what the map has
 * drawn (device labels, town names) cost 20-40 ms of queryRenderedFeatures each on a loading mobile page, and
 * the map goes idle again with nothing new drawn (a frame it had deferred, the canvas shown).
 *
 * The refresh runs in a task of its own right after the idle (`soon()`), not inside it: both overlays hear
 * the same idle, and the two refreshes in one task were one task of 43 ms at 10,000 devices (over 150 ms
 * under Lighthouse's 4x CPU slowdown; tests/perf/map-trace.ts). Tasks run in the order they were asked, so
 * the labels, mounted first, are placed before the town names that keep clear of them. `now()` runs it at
 * once; `next()` in a task of its own right away, whether or not the map changed (new inputs of the overlay's
 * own, heard in a React effect: run inside it, the labels' refresh made React's commit a task of 84 ms under
 * the 4x slowdown as the site names arrived on the 10,000-device map).
 */
export function refreshWhenDrawnChanges(map: MaplibreMap, refresh: () => void) {
  let dirty = true;
  let pending: ReturnType<typeof setTimeout> | null = null;
  const changed = () => {
    dirty = true;
  };
  const now = () => {
    dirty = false;
    refresh();
  };
  const soon = () => {
    if (pending !== null) return;
    pending = setTimeout(() => {
      pending = null;
      // A `now()` since the idle has already read what the map drew.
      if (dirty) now();
    }, 0);
  };
  const onIdle = () => {
    if (dirty) soon();
  };
  const next = () => {
    dirty = true;
    soon();
  };
  for (const type of DRAWN_CHANGES) map.on(type, changed);
  map.on('idle', onIdle);
  return {
    now,
    soon,
    next,
    changed,
    stop() {
      for (const type of DRAWN_CHANGES) map.off(type, changed);
      map.off('idle', onIdle);
      if (pending !== null) clearTimeout(pending);
      pending = null;
    },
  };
}

const hiddenRedraws = new WeakMap<MaplibreMap, () => void>();
/** The map's way of drawing a whole new data hidden behind its current picture (offline-map.tsx: software rasterisers only). */
export function registerHiddenRedraw(map: MaplibreMap, redraw: () => void): () => void {
  hiddenRedraws.set(map, redraw);
  return () => {
    if (hiddenRedraws.get(map) === redraw) hiddenRedraws.delete(map);
  };
}
/** A whole new data is about to go to the map's worker: where the map draws it hidden, it starts now; elsewhere nothing happens. */
export function redrawHidden(map: MaplibreMap): void {
  hiddenRedraws.get(map)?.();
}
