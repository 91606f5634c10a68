import type { LoginAnswer } from '@fleet/shared';
import { http, segment } from '../../../shared/api';

/** POST /auth/token/login/ */
export const login = (email: string, password: string) =>
  http<LoginAnswer>('/auth/token/login/', { method: 'POST', json: { email, password } });

export type UserKind = { role: string; user_type: string };

/** GET /api/v1/checkUser/{email}: 404 when no account has this email. */
export const checkUser = (email: string, signal?: AbortSignal) =>
  http<UserKind>(`/api/v1/checkUser/${segment(email)}`, signal ? { signal } : {});
