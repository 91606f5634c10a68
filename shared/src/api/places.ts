import {
  NEAREST_PLACE_MAX_KM,
  nearestPlaceAnswer,
  nearestPlaceQuery,
  placeNamesAnswer,
  placeNamesQuery,
  placeSuggestionsAnswer,
  placeSuggestionsQuery,
} from '../schemas/place.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Places';

/** Address suggestions, town names and the nearest town, for the device form and the offline map. */
export const placesApi = {
  nearestPlace: endpoint({
    method: 'get',
    path: '/api/v1/nearestPlace',
    tag,
    summary: 'The town nearest a point (US and AU), to name a pin dropped by hand in the Add/Edit Device form',
    description: `GeoNames towns of the offline gazetteer (at least 1000 inhabitants) and the US county holding the point (packaged US Census outlines; null in Australia). Nothing beyond ${NEAREST_PLACE_MAX_KM} km.`,
    query: nearestPlaceQuery,
    responses: {
      200: { description: 'The nearest town', schema: nearestPlaceAnswer },
      400: { description: 'Invalid input: `{ lat: [...] }` or `{ lng: [...] }`' },
      404: { description: `No town within ${NEAREST_PLACE_MAX_KM} km` },
    },
  }),
  placeSuggestions: endpoint({
    method: 'get',
    path: '/api/v1/placeSuggestions',
    tag,
    summary: 'Address suggestions (US and AU) with coordinates for the Add/Edit Device form',
    description:
      'The geocoder at GEOCODER_URL when the server has one (Nominatim, or Pelias with GEOCODER_KIND=pelias: street addresses), else Google Places when it has GOOGLE_MAPS_API_KEY, else (and whenever the geocoder or Google fails) an offline gazetteer of US and Australian towns with at least 1000 inhabitants. The gazetteer is town level: street addresses and postcodes find nothing. Accepts "Metairie, LA" or "New Orleans LA".',
    query: placeSuggestionsQuery,
    responses: {
      200: { description: 'Suggestions, best first (possibly none)', schema: placeSuggestionsAnswer },
      400: { description: 'Invalid input: `{ input: [...] }`, `{ country: [...] }` or `{ limit: [...] }`' },
    },
  }),
  placeNames: endpoint({
    method: 'get',
    path: '/api/v1/placeNames',
    tag,
    summary: 'Town names in a map view (US and AU), for the offline map',
    description:
      'The offline map names the towns in view so a person knows where the pins are without a Google key: GeoNames towns of the US and Australia (the gazetteer of the address suggestions), most populous first. The map asks for bigger towns when zoomed out.',
    query: placeNamesQuery,
    responses: {
      200: { description: 'Towns in the box, most populous first (possibly none)', schema: placeNamesAnswer },
      400: {
        description: 'Invalid input: `{ west: [...] }`, `{ south: [...] }`, `{ minPopulation: [...] }` or `{ limit: [...] }`',
      },
    },
  }),
};
