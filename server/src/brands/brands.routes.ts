import { Router } from 'express';
import {
  addBrandMultipartSchema,
  assignBrandToClientSchema,
  assignBrandToDeviceSchema,
  brandAnswerSchema,
  brandIdParamSchema,
  BRAND_MESSAGES,
  deleteBrandAnswerSchema,
  deleteBrandSchema,
  editBrandMultipartSchema,
} from '@fleet/shared';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { requireAccess, viewerOf } from '../auth/index.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
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
  const router = Router();
  // The service decides who may write; checking the role here too refuses a client or partner before
  // its upload is read into memory.
  const distributorOnly = requireAccess('distributor');

  router.get('/brand', async (req, res) => {
    res.json(await service.list(viewerOf(req)));
  });
  router.get('/brand/:id', async (req, res) => {
    res.json(await service.get(viewerOf(req), brandId(req.params.id)));
  });
  router.post('/addBrand', distributorOnly, imageUpload('image'), async (req, res) => {
    res.status(201).json(await service.add(viewerOf(req), req.body, uploadedImage(req)));
  });
  router.put('/brand/:id', distributorOnly, imageUpload('image'), async (req, res) => {
    res.json(await service.edit(viewerOf(req), brandId(req.params.id), req.body, uploadedImage(req)));
  });
  router.post('/assignBrandToClient', distributorOnly, async (req, res) => {
    res.json(await service.assignClients(viewerOf(req), parse(assignBrandToClientSchema, req.body ?? {})));
  });
  router.post('/assignBrandToDevice', distributorOnly, async (req, res) => {
    res.json(await service.assignDevices(viewerOf(req), parse(assignBrandToDeviceSchema, req.body ?? {})));
  });
  router.post('/deleteBrand/:id', distributorOnly, async (req, res) => {
    const id = brandId(req.params.id);
    res.json(await service.remove(viewerOf(req), id, parse(deleteBrandSchema, req.body ?? {})));
  });

  const tag = 'Brands';
  const brand = { description: 'The brand', schema: brandAnswerSchema };
  const notFound = { description: 'Unknown brand, or outside the caller scope' };
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/brand',
      tag,
      summary: 'Brands in the caller scope, with clients and placed device serials',
      description: 'Distributor: every brand. Client: brands assigned to it. Market partner: brands of its devices.',
      responses: { 200: { description: 'The brands', schema: z.array(brandAnswerSchema) } },
    },
    {
      method: 'get',
      path: '/api/v1/brand/:id',
      tag,
      summary: 'One brand in the caller scope',
      responses: { 200: brand, 404: notFound },
    },
    {
      method: 'post',
      path: '/api/v1/addBrand',
      tag,
      summary: 'Add a brand with its logo (distributor)',
      description: 'The image type is read from its content: PNG, JPEG, GIF or WebP, at most 2 MB.',
      multipart: addBrandMultipartSchema,
      responses: {
        201: { description: 'The new brand (with its id)', schema: brandAnswerSchema },
        413: { description: 'Image larger than 2 MB' },
      },
    },
    {
      method: 'put',
      path: '/api/v1/brand/:id',
      tag,
      summary: 'Rename a brand and/or replace its logo (distributor)',
      multipart: editBrandMultipartSchema,
      responses: { 200: brand, 404: notFound, 413: { description: 'Image larger than 2 MB' } },
    },
    {
      method: 'post',
      path: '/api/v1/assignBrandToClient',
      tag,
      summary: 'Replace the clients a brand is assigned to, at most 5 (distributor)',
      body: assignBrandToClientSchema,
      responses: { 200: brand, 404: notFound },
    },
    {
      method: 'post',
      path: '/api/v1/assignBrandToDevice',
      tag,
      summary: 'Give the listed devices this brand (distributor)',
      body: assignBrandToDeviceSchema,
      responses: { 200: brand, 404: notFound },
    },
    {
      method: 'post',
      path: '/api/v1/deleteBrand/:id',
      tag,
      summary: 'Delete a brand, optionally moving its devices to another brand first (distributor)',
      description: 'Body optional. Without transferBrandId the devices keep no brand.',
      body: deleteBrandSchema,
      responses: { 200: { description: 'Deleted', schema: deleteBrandAnswerSchema }, 404: notFound },
    },
  ];
  return { router, docs };
}
