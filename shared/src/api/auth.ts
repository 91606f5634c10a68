import { z } from 'zod';
import { currentUserSchema, loginSchema, resetPasswordSchema, signUpSchema } from '../schemas/auth.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Auth';
const detailSchema = z.object({ detail: z.string() });
const up = z.enum(['up', 'down']);
/** /readyz: what requests need, and whether it answers (redis only in the scaled run). */
const readinessSchema = z.object({ status: z.enum(['ready', 'unavailable']), database: up, redis: up.optional() });

/** Sign-in, sign-up, password reset and the signed-in user (spec section 5 and 7), the health probes, the client settings. */
export const authApi = {
  login: endpoint({
    method: 'post',
    path: '/auth/token/login/',
    tag,
    auth: 'none',
    summary: 'Sign in; the email is lowercased',
    body: loginSchema,
    responses: {
      200: { description: 'Signed in', schema: z.object({ auth_token: z.string() }) },
      400: { description: 'Wrong credentials or invalid input' },
      401: { description: 'Account deactivated or sign-up not yet approved' },
      429: { description: 'Too many failed attempts; see Retry-After' },
    },
  }),
  logout: endpoint({
    method: 'post',
    path: '/auth/token/logout/',
    tag,
    summary: 'Revoke the token used',
    responses: { 204: { description: 'Signed out' } },
  }),
  signUp: endpoint({
    method: 'post',
    path: '/auth/users/',
    tag,
    auth: 'none',
    summary: 'Sign up (a request a distributor approves)',
    body: signUpSchema,
    responses: {
      201: {
        description: 'Sign-up request created',
        schema: z.object({ id: z.number().int(), email: z.string(), username: z.string(), role: z.string() }),
      },
      429: { description: 'Too many sign-ups from this address (10 an hour) or for this email (3 an hour); see Retry-After' },
    },
  }),
  requestResetPassword: endpoint({
    method: 'post',
    path: '/api/v1/requestResetPassword/:email',
    tag,
    auth: 'none',
    summary: 'Mail a password reset link that opens /?token=...',
    responses: {
      200: { description: "Mail sent: { detail: 'Confirmation email has been Sent!' }", schema: detailSchema },
      404: { description: 'No account with this email' },
      429: { description: 'Too many reset requests for this email or from this address; see Retry-After' },
    },
  }),
  resetPassword: endpoint({
    method: 'post',
    path: '/api/v1/resetPassword',
    tag,
    auth: 'none',
    summary: 'Set a new password with a reset token (8+ characters, upper, lower, digit)',
    body: resetPasswordSchema,
    responses: {
      200: { description: "Password changed; other sessions end: { detail: 'Password Reset Success !' }", schema: detailSchema },
    },
  }),
  checkUser: endpoint({
    method: 'get',
    path: '/api/v1/checkUser/:email',
    tag,
    auth: 'none',
    summary: 'Role lookup of the login screen',
    responses: {
      200: { description: 'The role', schema: z.object({ role: z.string(), user_type: z.string() }) },
      404: { description: 'Unknown email' },
      429: { description: 'Too many lookups from this address; see Retry-After' },
    },
  }),
  user: endpoint({
    method: 'get',
    path: '/api/v1/user',
    tag,
    summary: 'The signed-in user (role, profile_url, notification flags)',
    responses: { 200: { description: 'The user', schema: currentUserSchema } },
  }),
  healthz: endpoint({
    method: 'get',
    path: '/healthz',
    tag: 'Health',
    auth: 'none',
    summary: 'The process is up',
    responses: { 200: { description: "{ status: 'ok' }", schema: z.object({ status: z.literal('ok') }) } },
  }),
  readyz: endpoint({
    method: 'get',
    path: '/readyz',
    tag: 'Health',
    auth: 'none',
    summary: 'The database answers',
    responses: {
      200: { description: 'Ready', schema: readinessSchema },
      503: { description: 'Database (or Redis, in the scaled run) unreachable', schema: readinessSchema },
    },
  }),
  clientConfig: endpoint({
    method: 'get',
    path: '/api/v1/clientConfig',
    tag,
    summary:
      'Run-time client settings: { googleMapsApiKey, mapStyleUrl } (null key: the offline map; null style: its built-in basemap)',
    responses: {
      200: {
        description: 'The settings',
        schema: z.object({ googleMapsApiKey: z.string().nullable(), mapStyleUrl: z.string().nullable() }),
      },
    },
  }),
};
