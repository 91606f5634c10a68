export * from './queue.ts';
export * from './jobs/registry.ts';
export { batchRecallNoticeSchema } from './jobs/batch-recall-notice.job.ts';
export * from './realtime/diff.ts';
export * from './realtime/watch-registry.ts';
export * from './realtime/poll-state.ts';
export * from './realtime/poller.ts';
export * from './queue-bullmq.ts';
export { dispensationSummarySchema } from './jobs/dispensation-summary.job.ts';
