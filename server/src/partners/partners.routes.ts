import { partnersApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { partnersRepository } from './partners.repository.ts';
import { partnersService } from './partners.service.ts';

/**
 * GET /api/v1/allUser (spec section 7) and the exclusive-device calls the spec leaves unnamed:
 * POST /api/v1/addExclusiveDevices/{email} and /api/v1/removeExclusiveDevices/{email} with {deviceSerials}.
 */
export function partnersRoutes(ctx: AppContext): Routes {
  const service = partnersService({
    repo: partnersRepository(ctx.db),
    deviceAccess: ctx.deviceAccess,
    log: ctx.log,
    devicesChanged: (serials) => ctx.pollNudge?.devicesChanged(serials),
  });
  const { router, docs, on } = endpointRoutes();

  on(partnersApi.allUser, async (req, res) => {
    res.json(await service.listUsers(viewerOf(req)));
  });
  on(partnersApi.addExclusiveDevices, async (req, res) => {
    res.json(await service.addDevices(viewerOf(req), req.params.email, req.body));
  });
  on(partnersApi.removeExclusiveDevices, async (req, res) => {
    res.json(await service.removeDevices(viewerOf(req), req.params.email, req.body));
  });

  return { router, docs };
}
