import { gazetteerPlaces } from './gazetteer.ts';
import type { PlaceSuggestion, PlacesProvider, SuggestOptions } from './places.provider.ts';

export const AUTOCOMPLETE_URL = 'https://places.googleapis.com/v1/places:autocomplete';
export const DETAILS_URL = 'https://places.googleapis.com/v1/places/';
export const DETAILS_FIELD_MASK = 'location,formattedAddress';

/** The parts of the Places API (New) answers that are used. */
type AutocompleteAnswer = {
  suggestions?: {
    placePrediction?: {
      placeId?: string;
      text?: { text?: string };
      structuredFormat?: { mainText?: { text?: string }; secondaryText?: { text?: string } };
    };
  }[];
};
type DetailsAnswer = { formattedAddress?: string; location?: { latitude?: number; longitude?: number } };

class GoogleError extends Error {}

export type GooglePlacesOptions = {
  /** Answers when Google fails in any way (default: the gazetteer). */
  fallback?: PlacesProvider;
  /** Per request to Google (default 4 s). */
  timeoutMs?: number;
  log?: (msg: string, err?: unknown) => void;
};

/**
 * Google Places API (New): autocomplete restricted to the requested regions, then place details for each
 * prediction's coordinates (the form needs a coordinate, spec section 5). Any error (network, timeout,
 * non-2xx, unexpected answer) answers from the fallback instead. The key is sent in a header, never logged.
 */
export function googlePlaces(apiKey: string, fetchImpl: typeof fetch = fetch, options: GooglePlacesOptions = {}): PlacesProvider {
  const fallback = options.fallback ?? gazetteerPlaces();
  const timeoutMs = options.timeoutMs ?? 4000;

  async function call<T>(url: string, init: RequestInit): Promise<T> {
    const res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok)
      throw new GoogleError(
        `Google Places answered ${res.status} to ${url.startsWith(AUTOCOMPLETE_URL) ? 'autocomplete' : 'place details'}`,
      );
    return (await res.json()) as T;
  }

  async function resolve(placeId: string, description: string, main: string, secondary: string): Promise<PlaceSuggestion> {
    const details = await call<DetailsAnswer>(DETAILS_URL + encodeURIComponent(placeId), {
      method: 'GET',
      headers: { 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': DETAILS_FIELD_MASK },
    });
    const lat = details.location?.latitude;
    const lng = details.location?.longitude;
    if (typeof lat !== 'number' || typeof lng !== 'number') throw new GoogleError('Google place details without a location');
    return {
      place_id: placeId,
      description,
      main_text: main,
      secondary_text: secondary,
      location: { lat, lng },
      // Only US and AU regions are requested: every US place is north of the equator, every Australian one south.
      country: lat < 0 ? 'AU' : 'US',
      source: 'google',
    };
  }

  return {
    source: 'google',
    async suggest(input: string, opts: SuggestOptions) {
      try {
        const answer = await call<AutocompleteAnswer>(AUTOCOMPLETE_URL, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Goog-Api-Key': apiKey },
          body: JSON.stringify({ input, includedRegionCodes: opts.countries, languageCode: 'en' }),
        });
        if (
          answer === null ||
          typeof answer !== 'object' ||
          (answer.suggestions !== undefined && !Array.isArray(answer.suggestions))
        ) {
          throw new GoogleError('Unexpected Google autocomplete answer');
        }
        const predictions = (answer.suggestions ?? [])
          .map((s) => s.placePrediction)
          .filter((p): p is NonNullable<typeof p> & { placeId: string } => typeof p?.placeId === 'string' && p.placeId.length > 0)
          .slice(0, opts.limit);
        return await Promise.all(
          predictions.map((p) => {
            const main = p.structuredFormat?.mainText?.text ?? p.text?.text ?? '';
            const secondary = p.structuredFormat?.secondaryText?.text ?? '';
            const description = p.text?.text ?? [main, secondary].filter(Boolean).join(', ');
            return resolve(p.placeId, description, main, secondary);
          }),
        );
      } catch (err) {
        options.log?.('Google Places failed; answering from the fallback', err);
        return fallback.suggest(input, opts);
      }
    },
  };
}
