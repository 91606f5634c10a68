import { batchesApi } from '@fleet/shared';
import type { BatchAnswer } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';

/** The Batch List of GET /api/v1/batch (spec section 3), in the caller's scope. */
export const batchesRequested = createEvent();
export const batchesCleared = createEvent();
export const fetchBatchListFx = createApiFx<void, BatchAnswer[]>(() => call(batchesApi.list));

export const $batches = createStore<BatchAnswer[]>([]);
export const $batchesStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');

$batches.on(fetchBatchListFx.doneData, (_, list) => list).reset(batchesCleared);
$batchesStatus
  .on(fetchBatchListFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchBatchListFx.done, () => 'ready')
  .on(fetchBatchListFx.fail, (status) => (status === 'ready' ? status : 'failed'))
  .reset(batchesCleared);
sample({ clock: batchesRequested, fn: () => undefined, target: fetchBatchListFx });
