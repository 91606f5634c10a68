import { authApi } from '@fleet/shared';
import type { RouteDoc } from '../openapi/route-docs.ts';

/** The auth and health calls for the OpenAPI document and the 415 guard (declared in shared/src/api/auth.ts; clientConfig is app.ts's). */
export const authDocs: RouteDoc[] = [
  authApi.login,
  authApi.logout,
  authApi.signUp,
  authApi.requestResetPassword,
  authApi.resetPassword,
  authApi.checkUser,
  authApi.user,
  authApi.healthz,
  authApi.readyz,
];
