import { deviceRollupQuerySchema, rollupsApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { rollupsRepository } from './rollups.repository.ts';
import { rollupsService } from './rollups.service.ts';

/** GET /api/v1/deviceRollup: the dashboard's roll-ups (issue 46), declared in shared/src/api/rollups.ts. */
export function rollupsRoutes(ctx: AppContext): Routes {
  const service = rollupsService(rollupsRepository(ctx.db));
  const { router, docs, on } = endpointRoutes();
  on(
    rollupsApi.rollup,
    async (req, res) => void res.json(await service.rollup(viewerOf(req), parse(deviceRollupQuerySchema, req.query))),
  );
  return { router, docs };
}
