export * from './endpoint.ts';
export * from './batches.ts';
