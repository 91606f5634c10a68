import {
  deviceGroupQuerySchema,
  overviewQuerySchema,
  siteNamesQuerySchema,
  timezoneUpdateSchema,
} from '../schemas/device.schema.ts';
import { z } from 'zod';
import {
  countyAnswerSchema,
  overviewAnswerSchema,
  siteAnswerSchema,
  siteNamesAnswerSchema,
  siteTimezoneAnswerSchema,
} from '../schemas/site-answer.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Sites and counties';

/** Sites (device groups), counties and the fleet overview of spec section 7. */
export const sitesApi = {
  deviceGroups: endpoint({
    method: 'get',
    path: '/api/v1/deviceGroup',
    tag,
    summary: 'Sites in scope with their devices, brands, batches and online/offline/warning/total counts',
    description:
      'Optional ?bbox=south,west,north,east and/or ?county= (issue 46): only the sites in that view, same shape. ' +
      "Without them, every site in scope (the spec's answer).",
    query: deviceGroupQuerySchema,
    responses: {
      200: { description: 'The sites', schema: z.array(siteAnswerSchema) },
      400: { description: 'bbox or county is not valid (the detail names it)' },
    },
  }),
  siteNames: endpoint({
    method: 'get',
    path: '/api/v1/siteNames',
    tag,
    summary: "The names of the sites in scope in a view, [id, name] each (the map's labels)",
    description:
      'Required ?bbox=south,west,north,east (issue 46). A name is the site name, else its address, trimmed; ' +
      'sites with neither are left out. The sites are those deviceGroup?bbox= answers for the same caller.',
    query: siteNamesQuerySchema,
    responses: {
      200: { description: 'The names, in site id order', schema: siteNamesAnswerSchema },
      400: { description: 'bbox is missing or not valid (the detail names it)' },
    },
  }),
  counties: endpoint({
    method: 'get',
    path: '/api/v1/location',
    tag,
    summary: 'Counties with their GeoJSON outline (first feature property name_2) and centroid POINT(lng lat)',
    responses: { 200: { description: 'The counties', schema: z.array(countyAnswerSchema) } },
  }),
  updateTimezone: endpoint({
    method: 'post',
    path: '/api/v1/update_timezone_device_location_group',
    tag,
    // Clients cannot configure machines (spec section 6): refused before the body is read.
    roles: ['distributor', 'market-partner'],
    summary:
      "Confirm a site's IANA time zone: the server derives it from the site's coordinates and refuses another (distributors, and market partners on their own sites)",
    body: timezoneUpdateSchema,
    responses: {
      200: { description: 'Saved: the zone of the coordinates', schema: siteTimezoneAnswerSchema },
      400: {
        description: "`{ timezone_id: [...] }`: not the zone of the site's coordinates (the message names it), or not a zone",
      },
      403: { description: 'Clients cannot configure machines' },
      404: { description: 'Unknown site or outside the caller scope' },
    },
  }),
  overview: endpoint({
    method: 'get',
    path: '/api/v1/overview',
    tag: 'Overview',
    summary: 'Fleet counts and usage totals (fl.oz.) in the caller scope, overall or for one county',
    query: overviewQuerySchema,
    responses: { 200: { description: 'The counts', schema: overviewAnswerSchema } },
  }),
};
