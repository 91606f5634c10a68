import { http, segment } from '../../../shared/api';

/** POST /api/v1/requestResetPassword/{email}: mails a reset link; 404 for an unknown email. */
export const requestPasswordReset = (email: string) =>
  http<{ detail: string }>(`/api/v1/requestResetPassword/${segment(email)}`, { method: 'POST' });
