import type { z } from 'zod';
import {
  NEAREST_PLACE_MAX_KM,
  nearestPlaceQuery,
  placeNamesAnswer,
  placeNamesQuery,
  placesApi,
  placeSuggestionsAnswer,
  placeSuggestionsQuery,
  type NearestPlace,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { nearestTown, placesInBox } from './gazetteer.ts';
import { countyDisplayName, usCountyAt } from './geography.ts';
import { placesProviderFor, type PlacesProvider } from './places.provider.ts';

/** GET /api/v1/placeSuggestions: address suggestions for the Add/Edit Device form (spec section 5: US and AU only). */
export function placesRoutes(ctx: AppContext, provider: PlacesProvider = placesProviderFor(ctx.config, ctx.log)): Routes {
  const { router, docs, on } = endpointRoutes();
  on(placesApi.placeSuggestions, async (req, res) => {
    const q = parse(placeSuggestionsQuery, req.query);
    const suggestions = await provider.suggest(q.input, { countries: q.country, limit: q.limit });
    res.json({ suggestions, source: suggestions[0]?.source ?? provider.source } satisfies z.input<typeof placeSuggestionsAnswer>);
  });
  on(placesApi.placeNames, async (req, res) => {
    const q = parse(placeNamesQuery, req.query);
    const places = await placesInBox(q, q.minPopulation, q.limit);
    res.json({ places } satisfies z.input<typeof placeNamesAnswer>);
  });
  // The label of a pin dropped by hand in the device form (issue 42): every signed-in user, like the address search.
  on(placesApi.nearestPlace, async (req, res) => {
    const q = parse(nearestPlaceQuery, req.query);
    const county = usCountyAt(q.lat, q.lng);
    const town = await nearestTown(q.lat, q.lng, NEAREST_PLACE_MAX_KM, county && ((t) => usCountyAt(t.lat, t.lng) === county));
    if (!town) throw ApiError.notFound(`No town of the US or Australia within ${NEAREST_PLACE_MAX_KM} km.`);
    res.json({
      name: town.name,
      county: county ? countyDisplayName(county).name : null,
      state: town.state,
      lat: town.lat,
      lng: town.lng,
      distanceKm: Math.round(town.distanceKm * 10) / 10,
    } satisfies NearestPlace);
  });
  return { router, docs };
}
