import { Router } from 'express';
import { timezoneUpdateSchema } from '@fleet/shared';
import { requireAccess, viewerOf } from '../auth/index.ts';
import type { AppContext } from '../context.ts';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import { sendCachedJson } from '../lib/cached-json.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { sitesRepository } from './sites.repository.ts';
import { sitesService } from './sites.service.ts';

export function sitesRoutes(ctx: AppContext): Routes {
  const service = sitesService({ repo: sitesRepository(ctx.db), ...(ctx.aggregates ? { cache: ctx.aggregates } : {}) });
  const router = Router();
  router.get('/deviceGroup', async (req, res) =>
    sendCachedJson(req, res, await service.deviceGroupsAnswer(viewerOf(req), wantsFresh(req.get('Cache-Control')))),
  );
  router.get('/location', async (req, res) =>
    sendCachedJson(req, res, await service.locationsAnswer(viewerOf(req), wantsFresh(req.get('Cache-Control')))),
  );
  // Clients cannot configure machines (spec section 6): refused before the body is read.
  router.post(
    '/update_timezone_device_location_group',
    requireAccess('distributor', 'market-partner'),
    async (req, res) => void res.json(await service.updateTimezone(viewerOf(req), parse(timezoneUpdateSchema, req.body))),
  );
  const tag = 'Sites and counties';
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/deviceGroup',
      tag,
      summary: 'Sites in scope with their devices, brands, batches and online/offline/warning/total counts',
    },
    {
      method: 'get',
      path: '/api/v1/location',
      tag,
      summary: 'Counties with their GeoJSON outline (first feature property name_2) and centroid POINT(lng lat)',
    },
    {
      method: 'post',
      path: '/api/v1/update_timezone_device_location_group',
      tag,
      summary:
        "Confirm a site's IANA time zone: the server derives it from the site's coordinates and refuses another (distributors, and market partners on their own sites)",
      body: timezoneUpdateSchema,
      responses: {
        200: { description: 'Saved: the zone of the coordinates' },
        400: {
          description: "`{ timezone_id: [...] }`: not the zone of the site's coordinates (the message names it), or not a zone",
        },
        403: { description: 'Clients cannot configure machines' },
        404: { description: 'Unknown site or outside the caller scope' },
      },
    },
  ];
  return { router, docs };
}
