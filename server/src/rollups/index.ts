/** The dashboard's roll-ups counted by the server (issue 46): rollups.routes.ts -> service -> repository. */
export { rollupsRoutes } from './rollups.routes.ts';
