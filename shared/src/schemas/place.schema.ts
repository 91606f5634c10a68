import { z } from 'zod';

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
