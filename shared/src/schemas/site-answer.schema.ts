import { z } from 'zod';

/**
 * The answers of the sites, counties and overview reads (GET /api/v1/deviceGroup, /location, /overview and
 * the site time-zone confirmation): the endpoint contract (api/sites.ts) declares them, every integration
 * test parses the server's answers with them, and the client's types are inferred from them.
 */

const count = z.number().int().nonnegative();
/** The counts a site and a county card show, over the caller's devices in it. */
const statusCounts = { total_devices: count, online_devices: count, offline_devices: count, warning_devices: count };

/** One site (device group) of GET /api/v1/deviceGroup, counted over the caller's devices only. */
export const siteAnswerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** The county (locations.id). */
  location: z.number().int().nullable(),
  /** The client company the site belongs to. */
  client: z.number().int().nullable(),
  timezone_id: z.string().nullable(),
  devices: z.array(z.object({ serial: z.string(), number: z.number().int().nullable() })),
  brand_list: z.array(z.object({ id: z.number().int(), name: z.string() })),
  batchIds: z.array(z.number().int()),
  ...statusCounts,
});
export type SiteAnswer = z.infer<typeof siteAnswerSchema>;

/** One county of GET /api/v1/location, with the counts of the caller's devices in it (the COUNTY cards). */
export const countyAnswerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.string(),
  fips: z.string().nullable(),
  /** A FeatureCollection whose first feature has property name_2 (spec section 3), as text. */
  geoJson: z.string(),
  /** 'POINT(lng lat)' */
  centroid: z.string(),
  ...statusCounts,
});
export type CountyAnswer = z.infer<typeof countyAnswerSchema>;

/** GET /api/v1/overview: the counts of spec section 3 (volumes in fl.oz.), overall (location null) or of one county. */
export const overviewAnswerSchema = z.object({
  location: z.number().int().nullable(),
  total_devices: count,
  online_devices: count,
  offline_devices: count,
  warning_devices: count,
  pause_devices: count,
  maintenance_devices: count,
  low_battery_devices: count,
  totalIsRegistration: count,
  totalSunscreenUsed: z.number(),
  totalSanitizerUsed: z.number(),
  totalSunscreenDispensingCount: count,
  totalSanitizerDispensingCount: count,
  totalSunscreenBatchs: count,
  totalSanitizerBatchs: count,
  total_brands: count,
  total_market_partners: count,
});
export type OverviewAnswer = z.infer<typeof overviewAnswerSchema>;

/** POST /api/v1/update_timezone_device_location_group's answer: the site and its confirmed zone. */
export const siteTimezoneAnswerSchema = z.object({ id: z.number().int(), timezone_id: z.string() });

/**
 * GET /api/v1/siteNames (issue 46): the map labels' names of the sites in a view, `[id, name]` each, in id
 * order. A site's name is its name, else its address, trimmed; a site with neither is left out. The map
 * read deviceGroup for these before: at 100,000 devices the view of the bench city was 6.6 MB of sites with
 * their devices, brands and batches, parsed on the page's thread (a task of 354-427 ms under a 4x CPU
 * slowdown, tests/perf/map-trace.ts); the names alone are about 0.3 MB.
 */
export const siteNamesAnswerSchema = z.array(z.tuple([z.number().int(), z.string()]));
export type SiteNamesAnswer = z.infer<typeof siteNamesAnswerSchema>;
