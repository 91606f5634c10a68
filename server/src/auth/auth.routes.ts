import { Router } from 'express';
import { emailParamSchema, loginSchema, resetPasswordSchema, signUpSchema } from '@fleet/shared';
import { parse } from '../lib/errors.ts';
import type { AuthService } from './auth.service.ts';
import { currentUser } from './auth.service.ts';
import { requireAuth, viewerOf } from './auth.middleware.ts';

/** The auth calls of spec section 7, with their exact paths. */
export function authRoutes(auth: AuthService) {
  const publicRoutes = Router();
  publicRoutes.post('/auth/token/login/', async (req, res) => {
    const input = parse(loginSchema, req.body);
    res.json(await auth.login(input, req.ip ?? 'unknown'));
  });
  publicRoutes.post('/auth/token/logout/', requireAuth(auth), async (req, res) => {
    await auth.logout(
      req
        .get('authorization')!
        .replace(/^Token\s+/, '')
        .trim(),
    );
    res.status(204).end();
  });
  publicRoutes.post('/auth/users/', async (req, res) => {
    res.status(201).json(await auth.signUp(parse(signUpSchema, req.body), req.ip ?? 'unknown'));
  });
  publicRoutes.post('/api/v1/requestResetPassword/:email', async (req, res) => {
    await auth.requestPasswordReset(parse(emailParamSchema, req.params.email), req.ip ?? 'unknown');
    res.json({ detail: 'Confirmation email has been Sent!' });
  });
  publicRoutes.post('/api/v1/resetPassword', async (req, res) => {
    await auth.resetPassword(parse(resetPasswordSchema, req.body));
    res.json({ detail: 'Password Reset Success !' });
  });
  publicRoutes.get('/api/v1/checkUser/:email', async (req, res) => {
    res.json(await auth.checkUser(parse(emailParamSchema, req.params.email), req.ip ?? 'unknown'));
  });

  const privateRoutes = Router();
  privateRoutes.get('/user', (req, res) => {
    res.json(currentUser(viewerOf(req)));
  });
  return { publicRoutes, privateRoutes };
}
