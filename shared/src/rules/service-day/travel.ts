/**
 * Travel times between points, behind one interface: the built-in estimate below (no service to call), or
 * a routing service (the server's OSRM `/table` adapter when ROUTING_URL is set) answering the same shape.
 */
export type LatLng = { lat: number; lng: number };

/** Seconds and metres from each point to each point (row: from, column: to). */
export type TravelMatrix = { seconds: number[][]; metres: number[][]; source: string };

export interface TravelTimeSource {
  readonly name: string;
  matrix(points: readonly LatLng[]): Promise<TravelMatrix>;
}

/**
 * Roads are longer than the straight line: 1.3 is the usual detour index of road networks (Boeing 2019,
 * ~1.2-1.4 for US cities); 45 km/h is an average over town streets and short highway legs with stops.
 */
export const ROAD_FACTOR = 1.3;
export const AVERAGE_KMH = 45;
const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine). */
export function greatCircleMetres(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The built-in matrix: great-circle distance times the road factor, driven at the average speed. */
export function greatCircleMatrix(points: readonly LatLng[], roadFactor = ROAD_FACTOR, kmh = AVERAGE_KMH): TravelMatrix {
  const metresPerSecond = (kmh * 1000) / 3600;
  const metres = points.map((a) => points.map((b) => greatCircleMetres(a, b) * roadFactor));
  return { metres, seconds: metres.map((row) => row.map((m) => m / metresPerSecond)), source: 'great-circle' };
}

export function greatCircleSource(roadFactor = ROAD_FACTOR, kmh = AVERAGE_KMH): TravelTimeSource {
  return { name: 'great-circle', matrix: async (points) => greatCircleMatrix(points, roadFactor, kmh) };
}
