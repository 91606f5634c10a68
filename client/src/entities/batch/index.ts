export { $batches, $batchesStatus, batchesCleared, batchesRequested, fetchBatchListFx } from './model';
export { batchLabel, batchListOrder, batchNumberKey, batchTone, fedDevices, formatDay, formatFlOz, type BatchTone } from './lib/batch-state';
