import { Router } from 'express';
import { z } from 'zod';
import { NEAREST_PLACE_MAX_KM, nearestPlaceAnswer, nearestPlaceQuery, requiredText, type NearestPlace } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { nearestTown, placesInBox } from './gazetteer.ts';
import { countyDisplayName, usCountyAt } from './geography.ts';
import { PLACE_COUNTRIES, placesProviderFor, type PlaceCountry, type PlacesProvider } from './places.provider.ts';

export const placeSuggestionsQuery = z.object({
  input: requiredText(100).describe('What the user typed in the address field (1 to 100 characters).'),
  country: z
    .string({ error: 'Must be a string.' })
    .regex(/^\s*(us|au)\s*(,\s*(us|au)\s*)*$/i, { error: 'Must be us, au or us,au.' })
    .optional()
    .transform((v): PlaceCountry[] =>
      v
        ? [
            ...new Set(
              v
                .toLowerCase()
                .split(',')
                .map((c) => c.trim() as PlaceCountry),
            ),
          ]
        : [...PLACE_COUNTRIES],
    )
    .describe('Comma-separated subset of us,au (default both).'),
  limit: z.coerce
    .number({ error: 'A whole number from 1 to 20 is required.' })
    .int({ error: 'A whole number from 1 to 20 is required.' })
    .min(1, { error: 'Ensure this value is greater than or equal to 1.' })
    .max(20, { error: 'Ensure this value is less than or equal to 20.' })
    .default(8)
    .describe('How many suggestions at most (default 8).'),
});

const placeSuggestion = z.object({
  place_id: z
    .string()
    .describe("'gz:<GeoNames id>' from the offline gazetteer, 'nm:...' or 'pl:...' from the geocoder, else a Google place id"),
  description: z.string().describe("e.g. 'Metairie, LA, USA'"),
  main_text: z.string(),
  secondary_text: z.string(),
  location: z.object({ lat: z.number(), lng: z.number() }),
  country: z.enum(['US', 'AU']),
  source: z.enum(['gazetteer', 'google', 'geocoder']),
});

export const placeSuggestionsAnswer = z.object({
  suggestions: z.array(placeSuggestion),
  source: z
    .enum(['gazetteer', 'google', 'geocoder'])
    .describe('Where these suggestions came from (the gazetteer when Google or the geocoder failed)'),
});

const coordinate = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `A number from ${min} to ${max} is required.` })
    .min(min, { error: `A number from ${min} to ${max} is required.` })
    .max(max, { error: `A number from ${min} to ${max} is required.` })
    .describe(name);
export const placeNamesQuery = z
  .object({
    west: coordinate('West edge of the view, degrees of longitude', -180, 180),
    south: coordinate('South edge of the view, degrees of latitude', -90, 90),
    east: coordinate('East edge of the view, degrees of longitude', -180, 180),
    north: coordinate('North edge of the view, degrees of latitude', -90, 90),
    minPopulation: z.coerce
      .number({ error: 'A whole number of 0 or more is required.' })
      .int({ error: 'A whole number of 0 or more is required.' })
      .min(0, { error: 'A whole number of 0 or more is required.' })
      .default(1000)
      .describe('Only towns with at least this many inhabitants (default 1000: every town the gazetteer holds).'),
    limit: z.coerce
      .number({ error: 'A whole number from 1 to 500 is required.' })
      .int({ error: 'A whole number from 1 to 500 is required.' })
      .min(1, { error: 'A whole number from 1 to 500 is required.' })
      .max(500, { error: 'A whole number from 1 to 500 is required.' })
      .default(200)
      .describe('How many towns at most (default 200), most populous first.'),
  })
  .refine((q) => q.south <= q.north, { path: ['south'], error: 'The south edge must not be north of the north edge.' });
export const placeNamesAnswer = z.object({
  places: z.array(
    z.object({
      name: z.string(),
      state: z.string().describe("'LA', 'NSW', ..."),
      population: z.number().int(),
      lat: z.number(),
      lng: z.number(),
    }),
  ),
});

/** GET /api/v1/placeSuggestions: address suggestions for the Add/Edit Device form (spec section 5: US and AU only). */
export function placesRoutes(ctx: AppContext, provider: PlacesProvider = placesProviderFor(ctx.config, ctx.log)): Routes {
  const router = Router();
  router.get('/placeSuggestions', async (req, res) => {
    const q = parse(placeSuggestionsQuery, req.query);
    const suggestions = await provider.suggest(q.input, { countries: q.country, limit: q.limit });
    res.json({ suggestions, source: suggestions[0]?.source ?? provider.source } satisfies z.input<typeof placeSuggestionsAnswer>);
  });
  router.get('/placeNames', async (req, res) => {
    const q = parse(placeNamesQuery, req.query);
    const places = await placesInBox(q, q.minPopulation, q.limit);
    res.json({ places } satisfies z.input<typeof placeNamesAnswer>);
  });
  // The label of a pin dropped by hand in the device form (issue 42): every signed-in user, like the address search.
  router.get('/nearestPlace', async (req, res) => {
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
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/nearestPlace',
      tag: 'Places',
      summary: 'The town nearest a point (US and AU), to name a pin dropped by hand in the Add/Edit Device form',
      description: `GeoNames towns of the offline gazetteer (at least 1000 inhabitants) and the US county holding the point (packaged US Census outlines; null in Australia). Nothing beyond ${NEAREST_PLACE_MAX_KM} km.`,
      query: nearestPlaceQuery,
      responses: {
        200: { description: 'The nearest town', schema: nearestPlaceAnswer },
        400: { description: 'Invalid input: `{ lat: [...] }` or `{ lng: [...] }`' },
        404: { description: `No town within ${NEAREST_PLACE_MAX_KM} km` },
      },
    },
    {
      method: 'get',
      path: '/api/v1/placeSuggestions',
      tag: 'Places',
      summary: 'Address suggestions (US and AU) with coordinates for the Add/Edit Device form',
      description:
        'The geocoder at GEOCODER_URL when the server has one (Nominatim, or Pelias with GEOCODER_KIND=pelias: street addresses), else Google Places when it has GOOGLE_MAPS_API_KEY, else (and whenever the geocoder or Google fails) an offline gazetteer of US and Australian towns with at least 1000 inhabitants. The gazetteer is town level: street addresses and postcodes find nothing. Accepts "Metairie, LA" or "New Orleans LA".',
      query: placeSuggestionsQuery,
      responses: {
        200: { description: 'Suggestions, best first (possibly none)', schema: placeSuggestionsAnswer },
        400: { description: 'Invalid input: `{ input: [...] }`, `{ country: [...] }` or `{ limit: [...] }`' },
      },
    },
    {
      method: 'get',
      path: '/api/v1/placeNames',
      tag: 'Places',
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
    },
  ];
  return { router, docs };
}
