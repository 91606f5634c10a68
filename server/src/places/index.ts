/**
 * Places: address suggestions for the device form (places.routes.ts; the offline gazetteer or Google) and
 * US geography from packaged data (geography.ts: county outlines, state names) for sites and the seed.
 */
export { placesRoutes } from './places.routes.ts';
export { countyDisplayName, locationFromCounty, usCountyAt } from './geography.ts';
