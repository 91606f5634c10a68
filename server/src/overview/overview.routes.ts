import { Router } from 'express';
import { overviewQuerySchema } from '@fleet/shared';
import { viewerOf } from '../auth/index.ts';
import type { AppContext } from '../context.ts';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { overviewRepository } from './overview.repository.ts';
import { overviewService } from './overview.service.ts';

export function overviewRoutes(ctx: AppContext): Routes {
  const service = overviewService({ repo: overviewRepository(ctx.db), ...(ctx.aggregates ? { cache: ctx.aggregates } : {}) });
  const router = Router();
  router.get(
    '/overview',
    async (req, res) =>
      void res.json(
        await service.overview(
          viewerOf(req),
          parse(overviewQuerySchema, req.query).location,
          wantsFresh(req.get('Cache-Control')),
        ),
      ),
  );
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/overview',
      tag: 'Overview',
      summary: 'Fleet counts and usage totals (fl.oz.) in the caller scope, overall or for one county',
      query: overviewQuerySchema,
    },
  ];
  return { router, docs };
}
