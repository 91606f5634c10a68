import { createEvent, createStore, sample } from 'effector';
import { $forgotEmail, forgotEmailPrefilled } from '../../features/forgot-password';
import { resetCleared, resetPasswordFx, resetTokenReceived } from '../../features/reset-password';
import { $email, emailPrefilled } from '../../features/sign-in';
import { signUpReset } from '../../features/sign-up';
import { queryParamRemoved, readLocationFx } from '../../shared/routing';

/**
 * Which view the auth modal shows (spec section 4): sign_in, sign_up or reset_password (the initial
 * view when the page was opened with a reset token). The sign-in view has two modes, login and
 * forgot password; the typed email travels between them.
 */
export type AuthView = 'sign_in' | 'sign_up' | 'reset_password';
export type SignInMode = 'login' | 'forgot';
export const RESET_TOKEN_PARAM = 'token';

export const authTabSelected = createEvent<'sign_in' | 'sign_up'>();
export const forgotPasswordOpened = createEvent();
export const forgotPasswordClosed = createEvent();
export const signUpClosed = createEvent();
export const resetPasswordClosed = createEvent();

export const $authView = createStore<AuthView>('sign_in');
export const $signInMode = createStore<SignInMode>('login');

$authView
  .on(authTabSelected, (_, tab) => tab)
  .on(signUpClosed, () => 'sign_in')
  .on(resetPasswordClosed, () => 'sign_in')
  .on(resetTokenReceived, () => 'reset_password');
$signInMode
  .on(forgotPasswordOpened, () => 'forgot')
  .on(forgotPasswordClosed, () => 'login')
  .on(authTabSelected, () => 'login');

sample({ clock: forgotPasswordOpened, source: $email, target: forgotEmailPrefilled });
sample({ clock: forgotPasswordClosed, source: $forgotEmail, target: emailPrefilled });
sample({ clock: signUpClosed, target: signUpReset });

// A reset link (/?token=...) at page load opens the reset view.
sample({
  clock: readLocationFx.doneData,
  filter: (location) => !!new URLSearchParams(location.search).get(RESET_TOKEN_PARAM),
  fn: (location) => new URLSearchParams(location.search).get(RESET_TOKEN_PARAM) ?? '',
  target: resetTokenReceived,
});
// Leaving the reset view forgets the token, in the store and in the address bar.
sample({ clock: resetPasswordClosed, target: resetCleared });
sample({ clock: resetPasswordClosed, fn: () => RESET_TOKEN_PARAM, target: queryParamRemoved });
// A reset that succeeded spent its token: out of the address bar at once (history.replaceState), so that a
// reload, a bookmark or a shared screen does not carry a dead link.
sample({ clock: resetPasswordFx.done, fn: () => RESET_TOKEN_PARAM, target: queryParamRemoved });
