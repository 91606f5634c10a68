import { z } from 'zod';
import {
  addBatchSchema,
  batchAnswerSchema,
  editBatchSchema,
  recallBatchAnswerSchema,
  recallBatchSchema,
  resumeBatchAnswerSchema,
} from '../schemas/batch.schema.ts';
import { endpoint } from './endpoint.ts';

/** The batch calls of spec section 7, with their exact paths. */
const tag = 'Batches';
const detail = z.object({ detail: z.string() });
const notFound = { description: 'No batch with this id', schema: detail };
const distributorOnly = 'Distributors only: clients and market partners get 403.';
const distributor = { roles: ['distributor'], refused: 'Only a distributor can manage batches.' } as const;

export const batchesApi = {
  list: endpoint({
    method: 'get',
    path: '/api/v1/batch',
    tag,
    summary: 'Batch List: every batch for a distributor; for others the batches feeding their devices',
    description:
      'Expired batches last, then by batch number. device_count, in_use and brand_lists count only devices in the caller scope.',
    responses: { 200: { description: 'Batches', schema: z.array(batchAnswerSchema) } },
  }),
  choosable: endpoint({
    method: 'get',
    path: '/api/v1/batch/:pumpTypeCode',
    tag,
    summary: 'Batches a device form may choose for a pump type (0 Unspecified, 1 Sunscreen, 2 Sanitizer)',
    description: 'Expired and recalled batches are excluded: neither may be put into a pump.',
    responses: {
      200: { description: 'Choosable batches', schema: z.array(batchAnswerSchema) },
      400: { description: 'Unknown pump type code.', schema: detail },
    },
  }),
  add: endpoint({
    ...distributor,
    method: 'post',
    path: '/api/v1/addBatch',
    tag,
    summary: 'ADD NEW BATCH (volume in fl.oz., stored in litres)',
    description: `${distributorOnly} A duplicate number (ignoring case and spaces) answers {"batchNumber": ["already has batch number"]}.`,
    body: addBatchSchema,
    responses: { 201: { description: 'The new batch', schema: batchAnswerSchema } },
  }),
  edit: endpoint({
    ...distributor,
    method: 'post',
    path: '/api/v1/editBatch/:id',
    tag,
    summary: 'Edit Batch: number, volume, dates (the type cannot change)',
    description: `${distributorOnly} A volume change moves remain by the same amount (within 0..volume). Warnings of fed devices are recomputed.`,
    body: editBatchSchema,
    responses: { 200: { description: 'The edited batch', schema: batchAnswerSchema }, 404: notFound },
  }),
  remove: endpoint({
    ...distributor,
    method: 'post',
    path: '/api/v1/deleteBatch/:id',
    tag,
    summary: 'Delete a batch that feeds no device',
    description: `${distributorOnly} While devices use it: 400 {"detail": "Batch is in use by N devices."}.`,
    responses: {
      200: { description: 'Delete batch success!', schema: detail },
      400: { description: 'Batch in use', schema: detail },
      404: notFound,
    },
  }),
  recall: endpoint({
    ...distributor,
    method: 'post',
    path: '/api/v1/recallBatch/:id',
    tag,
    summary: 'Recall a batch: warn (BATCH_RECALLED), optionally pause its devices, mail each client company',
    description: `${distributorOnly} Idempotent: recalling a recalled batch answers the same list and mails nobody again. Each client company assigned to a brand of an affected device gets one notice listing its own devices only.`,
    body: recallBatchSchema,
    responses: { 200: { description: 'Recall batch success!', schema: recallBatchAnswerSchema }, 404: notFound },
  }),
  resume: endpoint({
    ...distributor,
    method: 'post',
    path: '/api/v1/resumeBatch/:id',
    tag,
    summary: 'Lift a recall (devices paused by it stay paused and are listed)',
    description: distributorOnly,
    responses: { 200: { description: 'Resume batch success!', schema: resumeBatchAnswerSchema }, 404: notFound },
  }),
};
