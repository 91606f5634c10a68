import { assignBrandToSelectionSchema, resolveSelectionSchema, selectionsApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { brandsRepository } from '../brands/index.ts';
import { parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { selectionRepository } from './device-selection.ts';
import { selectionsService } from './selections.service.ts';

/** Selections resolved on the server (issue 46): POST /api/v1/deviceSelection and /api/v1/assignBrandToSelection. */
export function selectionsRoutes(ctx: AppContext): Routes {
  const brands = brandsRepository(ctx.db);
  const service = selectionsService({
    repo: selectionRepository(ctx.db),
    brandAnswer: async (viewer, id) => (await brands.list(viewer, id))[0],
    devicesChanged: (serials) => ctx.pollNudge?.devicesChanged(serials),
  });
  const { router, docs, on } = endpointRoutes();

  on(selectionsApi.resolve, async (req, res) => {
    const { selection, limit, counts } = parse(resolveSelectionSchema, req.body ?? {});
    res.json(await service.resolve(viewerOf(req), selection, limit, counts));
  });
  on(selectionsApi.assignBrand, async (req, res) => {
    res.json(await service.assignBrand(viewerOf(req), parse(assignBrandToSelectionSchema, req.body ?? {})));
  });

  return { router, docs };
}
