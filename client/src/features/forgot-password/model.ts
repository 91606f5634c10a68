import { MESSAGES, authApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { call } from '../../shared/api';
import { normalizeEmail } from '../../shared/lib';

/** The forgot-password view: 'Confirmation email has been Sent!' or 'Email Incorrect!', cleared by editing. */
export type ForgotOutcome = { tone: 'success' | 'error'; text: string } | null;

export const forgotEmailChanged = createEvent<string>();
export const forgotEmailPrefilled = createEvent<string>();
export const forgotSubmitted = createEvent();

/** POST /api/v1/requestResetPassword/{email}: mails a reset link; any failure reads 'Email Incorrect!'. */
export const requestResetFx = createEffect<string, unknown, Error>((email) =>
  call(authApi.requestResetPassword, { params: { email } }),
);

export const $forgotEmail = createStore('');
export const $forgotOutcome = createStore<ForgotOutcome>(null);
export const $forgotPending = requestResetFx.pending;

$forgotEmail.on(forgotEmailChanged, (_, v) => v).on(forgotEmailPrefilled, (_, v) => v);
$forgotOutcome
  .on(requestResetFx.done, () => ({ tone: 'success', text: MESSAGES.forgotSent }))
  .on(requestResetFx.fail, () => ({ tone: 'error', text: MESSAGES.forgotFailed }))
  .reset(forgotEmailChanged, forgotEmailPrefilled, forgotSubmitted);

sample({
  clock: forgotSubmitted,
  source: { email: $forgotEmail, pending: $forgotPending },
  filter: ({ pending }) => !pending,
  fn: ({ email }) => normalizeEmail(email),
  target: requestResetFx,
});
