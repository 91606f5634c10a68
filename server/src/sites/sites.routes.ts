import { deviceGroupQuerySchema, siteNamesQuerySchema, sitesApi, timezoneUpdateSchema } from '@fleet/shared';
import { viewerOf } from '../auth/index.ts';
import type { AppContext } from '../context.ts';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import { sendCachedJson } from '../lib/cached-json.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { sitesRepository } from './sites.repository.ts';
import { sitesService } from './sites.service.ts';

/** The site and county calls, declared in shared/src/api/sites.ts. */
export function sitesRoutes(ctx: AppContext): Routes {
  const service = sitesService({ repo: sitesRepository(ctx.db), ...(ctx.aggregates ? { cache: ctx.aggregates } : {}) });
  const { router, docs, on } = endpointRoutes();
  on(sitesApi.deviceGroups, async (req, res) => {
    const view = parse(deviceGroupQuerySchema, req.query);
    // Without a view, the spec's answer (every site in scope, cached per scope); with one, only its sites.
    if (view.bbox === undefined && view.county === undefined)
      return sendCachedJson(req, res, await service.deviceGroupsAnswer(viewerOf(req), wantsFresh(req.get('Cache-Control'))));
    return sendCachedJson(req, res, await service.deviceGroupsInView(viewerOf(req), view));
  });
  on(sitesApi.siteNames, async (req, res) =>
    sendCachedJson(req, res, await service.siteNamesInView(viewerOf(req), parse(siteNamesQuerySchema, req.query))),
  );
  on(sitesApi.counties, async (req, res) =>
    sendCachedJson(req, res, await service.locationsAnswer(viewerOf(req), wantsFresh(req.get('Cache-Control')))),
  );
  on(
    sitesApi.updateTimezone,
    async (req, res) => void res.json(await service.updateTimezone(viewerOf(req), parse(timezoneUpdateSchema, req.body))),
  );
  return { router, docs };
}
