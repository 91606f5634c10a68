import {
  assignBrandToClientSchema,
  assignBrandToDeviceSchema,
  brandIdParamSchema,
  BRAND_MESSAGES,
  brandsApi,
  deleteBrandSchema,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { brandsRepository } from './brands.repository.ts';
import { brandsService } from './brands.service.ts';
import { imageUpload, localImageStore, uploadedImage } from './image-upload.ts';

/** A path id that cannot name a brand is simply not found (never a 500 on `abc` or 10 kB of digits). */
function brandId(raw: unknown): number {
  const id = brandIdParamSchema.safeParse(raw);
  if (!id.success) throw ApiError.notFound(BRAND_MESSAGES.notFound);
  return id.data;
}

/** The brand calls of spec section 7: list, add, edit, assign to clients and devices, delete. */
export function brandsRoutes(ctx: AppContext): Routes {
  const service = brandsService({
    repo: brandsRepository(ctx.db),
    images: localImageStore(ctx.uploadsDir, 'brands'),
    log: ctx.log,
    devicesChanged: (serials) => ctx.pollNudge?.devicesChanged(serials),
  });
  const { router, docs, on } = endpointRoutes();

  on(brandsApi.list, async (req, res) => {
    res.json(await service.list(viewerOf(req)));
  });
  on(brandsApi.get, async (req, res) => {
    res.json(await service.get(viewerOf(req), brandId(req.params.id)));
  });
  on(brandsApi.add, imageUpload('image'), async (req, res) => {
    res.status(201).json(await service.add(viewerOf(req), req.body, uploadedImage(req)));
  });
  on(brandsApi.edit, imageUpload('image'), async (req, res) => {
    res.json(await service.edit(viewerOf(req), brandId(req.params.id), req.body, uploadedImage(req)));
  });
  on(brandsApi.assignClients, async (req, res) => {
    res.json(await service.assignClients(viewerOf(req), parse(assignBrandToClientSchema, req.body ?? {})));
  });
  on(brandsApi.assignDevices, async (req, res) => {
    res.json(await service.assignDevices(viewerOf(req), parse(assignBrandToDeviceSchema, req.body ?? {})));
  });
  on(brandsApi.remove, async (req, res) => {
    const id = brandId(req.params.id);
    res.json(await service.remove(viewerOf(req), id, parse(deleteBrandSchema, req.body ?? {})));
  });

  return { router, docs };
}
