import type { Map as MaplibreMap } from 'maplibre-gl';
import { PIN_STATUS_SEVERITY, type PinStatus } from '../../../entities/device';

/** The GeoJSON source of the sites and their clusters, where pins cluster (pins-layer.tsx). */
export const PINS_SOURCE = 'pins';
/** The GeoJSON source of the view's devices, where pins no longer cluster (pins-layer.tsx). */
export const VIEW_PINS_SOURCE = 'pins-view';

/** A pin or bubble drawn now: its place, where it is on the canvas (CSS px), its source properties (a bubble's gmin and gmax name its sites). */
export type DrawnPin = { at: [number, number]; x: number; y: number; cluster: boolean; properties: Record<string, unknown> };

/**
 * The pins and clusters drawn now whose anchor is on the canvas or within `margin` px of it, each once.
 * Read from the pins source's loaded tiles (querySourceFeatures), not from what was rendered
 * (queryRenderedFeatures): every pin and cluster is drawn (their icons allow overlap and ignore placement),
 * and the rendered query also evaluated each symbol layer's layout for every feature and looked each up in
 * the collision index: the device labels' first refresh on the 10,000-device map at zoom 10 (the map's first
 * view) was a task of 257 ms under Lighthouse's 4x CPU slowdown, 194 ms of it in queryRenderedFeatures; 115 ms
 * with 36 ms in querySourceFeatures (tests/perf/map-trace.ts, a slow AMD host).
 * A feature on a tile border comes from each tile that holds it: kept once (clusters by id, pins by serial).
 */
export function drawnPins(map: MaplibreMap, margin = 0): DrawnPin[] {
  const canvas = map.getCanvas();
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  const seen = new Set<string>();
  const drawn: DrawnPin[] = [];
  // The sites' source has tiles only where pins cluster, the view's only where they do not (their layers'
  // zooms): one of the two answers.
  for (const feature of [...map.querySourceFeatures(PINS_SOURCE), ...map.querySourceFeatures(VIEW_PINS_SOURCE)]) {
    if (feature.geometry.type !== 'Point') continue;
    const own = feature.properties ?? {};
    // A bubble: a cluster of sites, or one site of several devices (its own gmin and gmax: its site).
    const clustered = own.cluster === true || own.point_count !== undefined;
    const cluster = clustered || Number(own.c) > 1;
    const key = clustered ? `c${String(own.cluster_id)}` : cluster ? `s${String(own.k)}` : `p${String(own.serial)}`;
    const properties = cluster && !clustered ? { ...own, gmin: own.g, gmax: own.g } : own;
    if (seen.has(key)) continue;
    const at = feature.geometry.coordinates as [number, number];
    const { x, y } = map.project(at);
    if (x < -margin || y < -margin || x > width + margin || y > height + margin) continue;
    seen.add(key);
    drawn.push({ at, x, y, cluster, properties });
  }
  return drawn;
}

/** Which pins get a label first: the selected one, then by status, the worst first (offline, warning, registering, paused, normal), then by serial. */
export function byLabelPriority(selected: string | null) {
  const rank = (pin: DrawnPin) =>
    pin.properties.serial === selected ? -1 : PIN_STATUS_SEVERITY.indexOf(pin.properties.status as PinStatus);
  return (a: DrawnPin, b: DrawnPin) =>
    rank(a) - rank(b) || String(a.properties.serial).localeCompare(String(b.properties.serial));
}
