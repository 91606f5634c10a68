/** Sites (device groups) and counties: sites.routes.ts -> sites.service.ts -> sites.repository.ts; site-resolver.ts finds or creates the site of a placed device. */
export { sitesRoutes } from './sites.routes.ts';
export { resolveSite, timezoneAt } from './site-resolver.ts';
export { keptBrandIn, keptScope, type KeptScope } from './kept-scope.ts';
