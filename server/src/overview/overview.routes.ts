import { overviewQuerySchema, sitesApi } from '@fleet/shared';
import { viewerOf } from '../auth/index.ts';
import type { AppContext } from '../context.ts';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { overviewRepository } from './overview.repository.ts';
import { overviewService } from './overview.service.ts';

/** GET /overview, declared in shared/src/api/sites.ts. */
export function overviewRoutes(ctx: AppContext): Routes {
  const service = overviewService({ repo: overviewRepository(ctx.db), ...(ctx.aggregates ? { cache: ctx.aggregates } : {}) });
  const { router, docs, on } = endpointRoutes();
  on(
    sitesApi.overview,
    async (req, res) =>
      void res.json(
        await service.overview(
          viewerOf(req),
          parse(overviewQuerySchema, req.query).location,
          wantsFresh(req.get('Cache-Control')),
        ),
      ),
  );
  return { router, docs };
}
