export { RecallBatchDialogs } from './ui/recall-batch-dialogs';
export { recallRequested, resumeRequested } from './model';
