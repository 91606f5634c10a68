export { BatchFormDialog } from './ui/batch-form-dialog';
export { $canManageBatches, batchAddOpened, batchEditOpened } from './model';
