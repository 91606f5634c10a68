/** /healthz and /readyz. */
export { healthRoutes } from './health.routes.ts';
