/** GET /overview: the fleet counts of spec section 3 (overview.routes.ts -> overview.service.ts -> overview.repository.ts). */
export { overviewRoutes } from './overview.routes.ts';
