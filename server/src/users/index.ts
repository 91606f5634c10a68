/** User management and sign-up requests (users.routes.ts -> users.service.ts -> users.repository.ts). */
export { usersRoutes } from './users.routes.ts';
