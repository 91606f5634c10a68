import { MESSAGES, resetPasswordProblem, authApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { call } from '../../shared/api';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The RESET PASSWORD view, opened by a reset link (/?token=...). Spec section 5: both fields must meet
 * the policy, then match (messages from shared resetPasswordProblem); a server failure reads
 * 'Something went wrong.'; success turns the button green 'Password Reset Success !'.
 *
 * Success settles the form: the token is spent (forgotten here; the auth modal takes it out of the
 * address bar), the fields and the button stop taking input, and a second submit sends nothing. Before,
 * the button stayed live and a second click answered 'Something went wrong.' under the success.
 */
export type ResetResult = 'idle' | 'success';

export const resetTokenReceived = createEvent<string>();
export const newPasswordChanged = createEvent<string>();
export const repeatPasswordChanged = createEvent<string>();
export const resetSubmitted = createEvent();
export const resetCleared = createEvent();

export const resetPasswordFx = createEffect<{ token: string; password: string }, unknown, Error>((body) =>
  call(authApi.resetPassword, { body }),
);

export const $resetToken = createStore<string | null>(null);
export const $newPassword = createStore('');
export const $repeatPassword = createStore('');
/** The policy / mismatch / server message under the fields. */
export const $resetProblem = createStore<string | null>(null);
export const $resetResult = createStore<ResetResult>('idle');
export const $resetPending = resetPasswordFx.pending;

$resetToken.on(resetTokenReceived, (_, token) => token).reset(resetCleared, resetPasswordFx.done);
$newPassword.on(newPasswordChanged, (_, v) => v).reset(resetCleared);
$repeatPassword.on(repeatPasswordChanged, (_, v) => v).reset(resetCleared);
$resetProblem
  .on(resetPasswordFx.fail, () => MESSAGES.resetFailed)
  .reset(newPasswordChanged, repeatPasswordChanged, resetCleared, resetPasswordFx);
$resetResult.on(resetPasswordFx.done, () => 'success').reset(resetCleared);
/** The password is reset: the form only shows it (no edits, no second submit) until the view closes. */
export const $resetSettled = $resetResult.map((result) => result === 'success');
$newPassword.reset(resetPasswordFx.done);
$repeatPassword.reset(resetPasswordFx.done);

const checked = sample({
  clock: resetSubmitted,
  source: { password: $newPassword, repeat: $repeatPassword, token: $resetToken, pending: $resetPending, settled: $resetSettled },
  filter: ({ pending, settled }) => !pending && !settled,
  fn: ({ password, repeat, token }) => ({ problem: resetPasswordProblem(password, repeat), password, token }),
});
sample({ clock: checked, filter: ({ problem }) => problem !== null, fn: ({ problem }) => problem, target: $resetProblem });
sample({
  clock: checked,
  filter: ({ problem, token }) => problem === null && !token,
  fn: () => MESSAGES.resetFailed,
  target: $resetProblem,
});
sample({
  clock: checked,
  filter: ({ problem, token }) => problem === null && !!token,
  fn: ({ password, token }) => ({ token: token ?? '', password }),
  target: resetPasswordFx,
});
