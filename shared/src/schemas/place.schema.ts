import { z } from 'zod';
import { requiredText } from './common.ts';

/**
 * GET /api/v1/nearestPlace?lat=&lng=: the town nearest a point, for the label of a pin dropped by hand in
 * the Add/Edit Device form (issue 42). The client parses the answer with the same schema the server
 * answers with. Only US and Australian towns (the gazetteer of the address suggestions).
 */
const coordinate = (min: number, max: number) => {
  const error = `A number from ${min} to ${max} is required.`;
  // A blank or repeated parameter is no number (coercion alone reads '' as 0).
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'number' ? v : undefined),
    z.number({ error }).min(min, { error }).max(max, { error }),
  );
};

export const nearestPlaceQuery = z.object({
  lat: coordinate(-90, 90).describe('Latitude of the point, degrees'),
  lng: coordinate(-180, 180).describe('Longitude of the point, degrees'),
});
export type NearestPlaceQuery = z.infer<typeof nearestPlaceQuery>;

export const nearestPlaceAnswer = z.object({
  name: z.string().describe("The town, e.g. 'New Orleans'"),
  county: z
    .string()
    .nullable()
    .describe("The US county holding the point ('Orleans Parish'); null outside the US data set (Australia)"),
  state: z.string().describe("'LA', 'NSW', ..."),
  lat: z.number().describe("The town's latitude"),
  lng: z.number().describe("The town's longitude"),
  distanceKm: z.number().describe('From the point to the town, km (great circle), one decimal'),
});
export type NearestPlace = z.infer<typeof nearestPlaceAnswer>;

/** Beyond this no town is named: the answer is a 404 (a pin in the sea or outside the US and Australia). */
export const NEAREST_PLACE_MAX_KM = 100;

/** The countries of the address suggestions and town names (spec section 5: US and AU only). */
const PLACE_COUNTRIES = ['us', 'au'] as const;
type PlaceCountry = (typeof PLACE_COUNTRIES)[number];

/** GET /api/v1/placeSuggestions and GET /api/v1/placeNames (shared/src/api/places.ts). */
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

const boxEdge = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `A number from ${min} to ${max} is required.` })
    .min(min, { error: `A number from ${min} to ${max} is required.` })
    .max(max, { error: `A number from ${min} to ${max} is required.` })
    .describe(name);
export const placeNamesQuery = z
  .object({
    west: boxEdge('West edge of the view, degrees of longitude', -180, 180),
    south: boxEdge('South edge of the view, degrees of latitude', -90, 90),
    east: boxEdge('East edge of the view, degrees of longitude', -180, 180),
    north: boxEdge('North edge of the view, degrees of latitude', -90, 90),
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
