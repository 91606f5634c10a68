import type { Config } from '../config/config.ts';
import { gazetteerPlaces } from './gazetteer.ts';
import { geocoderPlaces } from './geocoder.ts';
import { googlePlaces } from './google-places.ts';

/** The countries the portal suggests addresses in (spec section 5: US and AU only). */
export const PLACE_COUNTRIES = ['us', 'au'] as const;
export type PlaceCountry = (typeof PLACE_COUNTRIES)[number];

/** One address suggestion for the Add/Edit Device form; `location` fills the device coordinate. */
export type PlaceSuggestion = {
  /** 'gz:<GeoNames id>' for the gazetteer, 'nm:<osm type>:<osm id>' (Nominatim) or 'pl:<gid>' (Pelias) for the geocoder, Google's place id otherwise. */
  place_id: string;
  /** The whole line shown in the dropdown, e.g. 'Metairie, LA, USA'. */
  description: string;
  main_text: string;
  secondary_text: string;
  location: { lat: number; lng: number };
  country: 'US' | 'AU';
  source: 'gazetteer' | 'google' | 'geocoder';
};

export type SuggestOptions = { countries: PlaceCountry[]; limit: number };

export interface PlacesProvider {
  /** Where suggestions come from when nothing goes wrong (a Google provider may still answer from its fallback). */
  readonly source: PlaceSuggestion['source'];
  suggest(input: string, opts: SuggestOptions): Promise<PlaceSuggestion[]>;
}

/**
 * The address search: the geocoder at GEOCODER_URL when configured (docs/configuration-geocoder.md), else
 * Google Places when GOOGLE_MAPS_API_KEY is, else the offline gazetteer. The geocoder comes first because
 * setting it is a choice made for the address search alone, where a Google key also serves the map. Either
 * remote one answers from the gazetteer when it fails.
 */
export function placesProviderFor(
  config: Pick<Config, 'googleMapsApiKey' | 'geocoder' | 'publicUrl'>,
  log?: (msg: string, err?: unknown) => void,
): PlacesProvider {
  const gazetteer = gazetteerPlaces();
  if (config.geocoder)
    return geocoderPlaces(config.geocoder.kind, config.geocoder.url, fetch, {
      fallback: gazetteer,
      log,
      userAgent: `fleet-portal (${config.publicUrl})`,
    });
  return config.googleMapsApiKey ? googlePlaces(config.googleMapsApiKey, fetch, { fallback: gazetteer, log }) : gazetteer;
}
