import { emptyStatusCounts, type PinStatus, type StatusCounts } from '../../../entities/device';

/**
 * Screen-grid clustering for the Google provider (the offline provider uses MapLibre's own): points
 * in world pixels at the current zoom are bucketed in cells of `cellPx`; a cell with one point stays a
 * pin, a cell with more becomes a cluster at the points' mean with counts per status.
 */
export type GridPoint = { x: number; y: number; serial: string; status: PinStatus; label: string };
export type GridItem =
  | { kind: 'pin'; x: number; y: number; point: GridPoint }
  | { kind: 'cluster'; x: number; y: number; total: number; counts: StatusCounts; points: GridPoint[] };

export function gridCluster(points: readonly GridPoint[], cellPx: number, clusterBelowCount = 2): GridItem[] {
  const cells = new Map<string, GridPoint[]>();
  for (const point of points) {
    const key = `${Math.floor(point.x / cellPx)}:${Math.floor(point.y / cellPx)}`;
    const cell = cells.get(key);
    if (cell) cell.push(point);
    else cells.set(key, [point]);
  }
  const items: GridItem[] = [];
  for (const cell of cells.values()) {
    if (cell.length < clusterBelowCount) {
      for (const point of cell) items.push({ kind: 'pin', x: point.x, y: point.y, point });
      continue;
    }
    const counts = emptyStatusCounts();
    let x = 0;
    let y = 0;
    for (const point of cell) {
      counts[point.status] += 1;
      x += point.x;
      y += point.y;
    }
    items.push({ kind: 'cluster', x: x / cell.length, y: y / cell.length, total: cell.length, counts, points: cell });
  }
  return items;
}

/** Web Mercator world pixels for a 256 px tile scale at `zoom`. */
export function project(lat: number, lng: number, zoom: number): { x: number; y: number } {
  const scale = 256 * 2 ** zoom;
  const sin = Math.min(Math.max(Math.sin((lat * Math.PI) / 180), -0.9999), 0.9999);
  return { x: ((lng + 180) / 360) * scale, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale };
}
