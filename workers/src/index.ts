export * from './queue.ts';
export * from './jobs/registry.ts';
export { batchRecallNoticeSchema } from './jobs/batch-recall-notice.job.ts';
