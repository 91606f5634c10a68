import { Router } from 'express';
import { z } from 'zod';
import { requiredText } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { PLACE_COUNTRIES, placesProviderFor, type PlaceCountry, type PlacesProvider } from './places.provider.ts';

export const placeSuggestionsQuery = z.object({
  input: requiredText(100).describe('What the user typed in the address field (1 to 100 characters).'),
  country: z
    .string({ error: 'Must be a string.' })
    .regex(/^\s*(us|au)\s*(,\s*(us|au)\s*)*$/i, { error: 'Must be us, au or us,au.' })
    .optional()
    .transform((v): PlaceCountry[] => (v ? [...new Set(v.toLowerCase().split(',').map((c) => c.trim() as PlaceCountry))] : [...PLACE_COUNTRIES]))
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
  place_id: z.string().describe("'gz:<GeoNames id>' from the offline gazetteer, else a Google place id"),
  description: z.string().describe("e.g. 'Metairie, LA, USA'"),
  main_text: z.string(),
  secondary_text: z.string(),
  location: z.object({ lat: z.number(), lng: z.number() }),
  country: z.enum(['US', 'AU']),
  source: z.enum(['gazetteer', 'google']),
});

export const placeSuggestionsAnswer = z.object({
  suggestions: z.array(placeSuggestion),
  source: z.enum(['gazetteer', 'google']).describe('Where these suggestions came from (the gazetteer when Google failed)'),
});

/** GET /api/v1/placeSuggestions: address suggestions for the Add/Edit Device form (spec section 5: US and AU only). */
export function placesRoutes(ctx: AppContext, provider: PlacesProvider = placesProviderFor(ctx.config, ctx.log)): Routes {
  const router = Router();
  router.get('/placeSuggestions', async (req, res) => {
    const q = parse(placeSuggestionsQuery, req.query);
    const suggestions = await provider.suggest(q.input, { countries: q.country, limit: q.limit });
    res.json({ suggestions, source: suggestions[0]?.source ?? provider.source } satisfies z.input<typeof placeSuggestionsAnswer>);
  });
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/placeSuggestions',
      tag: 'Places',
      summary: 'Address suggestions (US and AU) with coordinates for the Add/Edit Device form',
      description:
        'Google Places when the server has GOOGLE_MAPS_API_KEY, else (and whenever Google fails) an offline gazetteer of US and Australian towns with at least 1000 inhabitants. The gazetteer is town level: street addresses and postcodes find nothing. Accepts "Metairie, LA" or "New Orleans LA".',
      query: placeSuggestionsQuery,
      responses: {
        200: { description: 'Suggestions, best first (possibly none)', schema: placeSuggestionsAnswer },
        400: { description: 'Invalid input: `{ input: [...] }`, `{ country: [...] }` or `{ limit: [...] }`' },
      },
    },
  ];
  return { router, docs };
}
