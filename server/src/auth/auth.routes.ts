import { authApi, emailParamSchema, loginSchema, resetPasswordSchema, signUpSchema } from '@fleet/shared';
import { parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { AuthService } from './auth.service.ts';
import { currentUser } from './auth.service.ts';
import { requireAuth, viewerOf } from './auth.middleware.ts';

/** The auth calls of spec section 7, declared in shared/src/api/auth.ts. */
export function authRoutes(auth: AuthService) {
  // Public calls at their full paths (some outside /api/v1), mounted on the app itself.
  const publicRoutes = endpointRoutes('');
  publicRoutes.on(authApi.login, async (req, res) => {
    const input = parse(loginSchema, req.body);
    res.json(await auth.login(input, req.ip ?? 'unknown'));
  });
  publicRoutes.on(authApi.logout, requireAuth(auth), async (req, res) => {
    await auth.logout(
      req
        .get('authorization')!
        .replace(/^Token\s+/, '')
        .trim(),
    );
    res.status(204).end();
  });
  publicRoutes.on(authApi.signUp, async (req, res) => {
    res.status(201).json(await auth.signUp(parse(signUpSchema, req.body), req.ip ?? 'unknown'));
  });
  publicRoutes.on(authApi.requestResetPassword, async (req, res) => {
    await auth.requestPasswordReset(parse(emailParamSchema, req.params.email), req.ip ?? 'unknown');
    res.json({ detail: 'Confirmation email has been Sent!' });
  });
  publicRoutes.on(authApi.resetPassword, async (req, res) => {
    await auth.resetPassword(parse(resetPasswordSchema, req.body));
    res.json({ detail: 'Password Reset Success !' });
  });
  publicRoutes.on(authApi.checkUser, async (req, res) => {
    res.json(await auth.checkUser(parse(emailParamSchema, req.params.email), req.ip ?? 'unknown'));
  });

  const privateRoutes = endpointRoutes();
  privateRoutes.on(authApi.user, (req, res) => {
    res.json(currentUser(viewerOf(req)));
  });
  return { publicRoutes: publicRoutes.router, privateRoutes: privateRoutes.router };
}
