import { z } from 'zod';
import {
  addBrandMultipartSchema,
  assignBrandToClientSchema,
  assignBrandToDeviceSchema,
  brandAnswerSchema,
  deleteBrandAnswerSchema,
  deleteBrandSchema,
  editBrandMultipartSchema,
} from '../schemas/brand.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Brands';
const brand = { description: 'The brand', schema: brandAnswerSchema };
const notFound = { description: 'Unknown brand, or outside the caller scope' };
// The service decides who may write; the declared role refuses a client or partner before its upload is read into memory.
const distributor = { roles: ['distributor'] } as const;

/** The brand calls of spec section 7: list, add, edit, assign to clients and devices, delete. */
export const brandsApi = {
  list: endpoint({
    method: 'get',
    path: '/api/v1/brand',
    tag,
    summary: 'Brands in the caller scope, with clients and placed device serials',
    description: 'Distributor: every brand. Client: brands assigned to it. Market partner: brands of its devices.',
    responses: { 200: { description: 'The brands', schema: z.array(brandAnswerSchema) } },
  }),
  get: endpoint({
    method: 'get',
    path: '/api/v1/brand/:id',
    tag,
    summary: 'One brand in the caller scope',
    responses: { 200: brand, 404: notFound },
  }),
  add: endpoint({
    method: 'post',
    path: '/api/v1/addBrand',
    tag,
    ...distributor,
    summary: 'Add a brand with its logo (distributor)',
    description: 'The image type is read from its content: PNG, JPEG, GIF or WebP, at most 2 MB.',
    multipart: addBrandMultipartSchema,
    responses: {
      201: { description: 'The new brand (with its id)', schema: brandAnswerSchema },
      413: { description: 'Image larger than 2 MB' },
    },
  }),
  edit: endpoint({
    method: 'put',
    path: '/api/v1/brand/:id',
    tag,
    ...distributor,
    summary: 'Rename a brand and/or replace its logo (distributor)',
    multipart: editBrandMultipartSchema,
    responses: { 200: brand, 404: notFound, 413: { description: 'Image larger than 2 MB' } },
  }),
  assignClients: endpoint({
    method: 'post',
    path: '/api/v1/assignBrandToClient',
    tag,
    ...distributor,
    summary: 'Replace the clients a brand is assigned to, at most 5 (distributor)',
    body: assignBrandToClientSchema,
    responses: { 200: brand, 404: notFound },
  }),
  assignDevices: endpoint({
    method: 'post',
    path: '/api/v1/assignBrandToDevice',
    tag,
    ...distributor,
    summary: 'Give the listed devices this brand (distributor)',
    body: assignBrandToDeviceSchema,
    responses: { 200: brand, 404: notFound },
  }),
  remove: endpoint({
    method: 'post',
    path: '/api/v1/deleteBrand/:id',
    tag,
    ...distributor,
    summary: 'Delete a brand, optionally moving its devices to another brand first (distributor)',
    description: 'Body optional. Without transferBrandId the devices keep no brand.',
    body: deleteBrandSchema,
    responses: { 200: { description: 'Deleted', schema: deleteBrandAnswerSchema }, 404: notFound },
  }),
};
