import { usersApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { imageUpload, localImageStore, uploadedImage } from '../brands/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { usersRepository } from './users.repository.ts';
import { usersService } from './users.service.ts';

/** The user calls of spec section 7, declared in shared/src/api/users.ts. */
export function usersRoutes(ctx: AppContext): Routes {
  const service = usersService({
    repo: usersRepository(ctx.db),
    images: localImageStore(ctx.uploadsDir, 'profiles'),
    queue: ctx.queue,
    publicUrl: ctx.config.publicUrl,
    now: ctx.now,
    log: ctx.log,
  });
  const { router, docs, on } = endpointRoutes();

  on(usersApi.clients, async (req, res) => {
    res.json(await service.listClients(viewerOf(req)));
  });
  on(usersApi.pending, async (req, res) => {
    res.json(await service.listPending(viewerOf(req)));
  });
  on(usersApi.edit, imageUpload('image'), async (req, res) => {
    res.json(await service.edit(viewerOf(req), req.params.email, req.body, uploadedImage(req)));
  });
  on(usersApi.activate, async (req, res) => {
    res.json(await service.activate(viewerOf(req), req.params.email));
  });
  on(usersApi.reject, async (req, res) => {
    res.json(await service.reject(viewerOf(req), req.params.email));
  });
  return { router, docs };
}
