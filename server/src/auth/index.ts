/**
 * Sign-in, tokens and sessions (spec section 5): auth.routes.ts (the calls), auth.service.ts (logic),
 * auth.repository.ts (SQL). Other features take the caller from `viewerOf(req)` and check roles with
 * the `roles` of their endpoint declarations (shared/src/api/, checked by `requireRoles`); scope rules live in server/src/access/scope.ts.
 */
export { authRoutes } from './auth.routes.ts';
export { authDocs } from './auth.docs.ts';
export { requireAuth, requireRoles, viewerOf } from './auth.middleware.ts';
export { authRepository } from './auth.repository.ts';
export { authService, type AuthService, type Viewer } from './auth.service.ts';
export { authLimits, quota, type Quota } from './limits.ts';
