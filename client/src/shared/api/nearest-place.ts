import { nearestPlaceAnswer, type NearestPlace, placesApi } from '@fleet/shared';
import { http, HttpError } from './http';

/**
 * The town nearest a point, to name a pin dropped by hand (the device form): the one door to the server's
 * reverse lookup, GET /api/v1/nearestPlace (the offline gazetteer's towns and the US county; issue 42).
 * Null when no town is near enough (the server's 404: a pin in the sea, or outside the US and Australia);
 * any other failure rejects like every call. The answer is read with the server's own shared schema.
 */
export async function nearestPlace(point: { lat: number; lng: number }): Promise<NearestPlace | null> {
  const query = new URLSearchParams({ lat: point.lat.toFixed(6), lng: point.lng.toFixed(6) });
  try {
    return nearestPlaceAnswer.parse(await http<unknown>(`${placesApi.nearestPlace.path}?${query}`));
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}

/** 'New Orleans, LA · Orleans Parish · 2.1 km': a pin's label. */
export function nearestPlaceText(place: NearestPlace): string {
  const km = place.distanceKm < 0.1 ? '' : ` · ${place.distanceKm.toFixed(1)} km`;
  return `${place.name}, ${place.state}${place.county ? ` · ${place.county}` : ''}${km}`;
}
