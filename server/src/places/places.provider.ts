import type { Config } from '../config/config.ts';
import { gazetteerPlaces } from './gazetteer.ts';
import { googlePlaces } from './google-places.ts';

/** The countries the portal suggests addresses in (spec section 5: US and AU only). */
export const PLACE_COUNTRIES = ['us', 'au'] as const;
export type PlaceCountry = (typeof PLACE_COUNTRIES)[number];

/** One address suggestion for the Add/Edit Device form; `location` fills the device coordinate. */
export type PlaceSuggestion = {
  /** 'gz:<GeoNames id>' for the gazetteer, Google's place id otherwise. */
  place_id: string;
  /** The whole line shown in the dropdown, e.g. 'Metairie, LA, USA'. */
  description: string;
  main_text: string;
  secondary_text: string;
  location: { lat: number; lng: number };
  country: 'US' | 'AU';
  source: 'gazetteer' | 'google';
};

export type SuggestOptions = { countries: PlaceCountry[]; limit: number };

export interface PlacesProvider {
  /** Where suggestions come from when nothing goes wrong (a Google provider may still answer from its fallback). */
  readonly source: PlaceSuggestion['source'];
  suggest(input: string, opts: SuggestOptions): Promise<PlaceSuggestion[]>;
}

/** Google Places when GOOGLE_MAPS_API_KEY is configured (falling back to the gazetteer on errors), else the gazetteer. */
export function placesProviderFor(config: Pick<Config, 'googleMapsApiKey'>, log?: (msg: string, err?: unknown) => void): PlacesProvider {
  const gazetteer = gazetteerPlaces();
  return config.googleMapsApiKey ? googlePlaces(config.googleMapsApiKey, fetch, { fallback: gazetteer, log }) : gazetteer;
}
