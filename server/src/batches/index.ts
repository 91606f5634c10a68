/** Batches of fluid (spec sections 3, 4 and 7): the house example of routes -> service -> repository. */
export { batchesRoutes } from './batches.routes.ts';
export { foldBatchConsumption } from './batches.repository.ts';
