export { $batches, $batchesStatus, batchesCleared, batchesRequested, fetchBatchListFx } from './model';
export { batchLabel, batchListOrder, batchTone, formatDay, formatFlOz } from './lib/batch-state';
