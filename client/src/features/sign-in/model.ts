import { MESSAGES, type LoginAnswer, authApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { call, HttpError } from '../../shared/api';
import { normalizeEmail, yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The SIGN IN view (spec sections 2, 4, 5): email lowercased before sending, no client-side required
 * check, Enter submits, 'Incorrect email / password' on failure. A 401 means the account exists but is
 * deactivated: the app opens the Account Deactivated dialog. Typing pauses 2 s -> role lookup.
 */
export const ROLE_LOOKUP_IDLE_MS = 2000;

/** The indicator the form lights: 'company' for client accounts, 'distributor' for distributors. */
export type AccountKind = 'company' | 'distributor';
export type UserKind = { role: string; user_type: string };

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailChanged = createEvent<string>();
export const passwordChanged = createEvent<string>();
export const signInSubmitted = createEvent();
/** Pre-fills the email (coming back from the forgot-password view). */
export const emailPrefilled = createEvent<string>();
export const signInReset = createEvent();

export const loginFx = createEffect<{ email: string; password: string }, LoginAnswer, Error>(({ email, password }) =>
  call(authApi.login, { body: { email, password } }),
);
/** GET /api/v1/checkUser/{email}: 404 when no account has this email. */
export const checkUserFx = createEffect<string, UserKind, Error>((email) => call(authApi.checkUser, { params: { email } }));
/** The idle timer of the role lookup; resolves with the edit it was started for. */
export const lookupIdleFx = createEffect<number, number>(
  (edit) => new Promise((resolve) => window.setTimeout(() => resolve(edit), ROLE_LOOKUP_IDLE_MS)),
);

export const $email = createStore('');
export const $password = createStore('');
export const $error = createStore<string | null>(null);
export const $pending = loginFx.pending;
/** Counts edits so a timer started for an older edit does nothing. */
const $emailEdits = createStore(0);
const $lookup = createStore<{ email: string; kind: AccountKind | null } | null>(null);

export const kindOfRole = (role: string): AccountKind | null =>
  role === 'distributor' ? 'distributor' : role === 'client' ? 'company' : null;

/** Lit only while the email is still the one that was looked up. */
export const $accountKind = sample({
  source: { email: $email, lookup: $lookup },
  fn: ({ email, lookup }) => (lookup && lookup.email === normalizeEmail(email) ? lookup.kind : null),
});

/** A failed login: the Account Deactivated dialog opens for 401. */
export const deactivatedLoginRefused = createEvent();
/** The token of an accepted login. */
export const signedIn = createEvent<string>();

$email
  .on(emailChanged, (_, value) => value)
  .on(emailPrefilled, (_, value) => value)
  .reset(signInReset);
$password.on(passwordChanged, (_, value) => value).reset(signInReset);
$emailEdits.on(emailChanged, (n) => n + 1).on(emailPrefilled, (n) => n + 1);
$error.reset(emailChanged, passwordChanged, signInSubmitted, signInReset, emailPrefilled);

sample({
  clock: signInSubmitted,
  source: { email: $email, password: $password, pending: $pending },
  filter: ({ pending }) => !pending,
  fn: ({ email, password }) => ({ email: normalizeEmail(email), password }),
  target: loginFx,
});
sample({ clock: loginFx.doneData, fn: ({ auth_token }) => auth_token, target: signedIn });
sample({ clock: loginFx.doneData, target: signInReset });
/**
 * A sign-up request waiting for approval, or rejected, is refused with its own 401 code: the overdue
 * invoice dialog would tell it something untrue, so the form says the server's words instead.
 */
const isSignUpRefusal = (error: Error) =>
  error instanceof HttpError &&
  error.status === 401 &&
  /^sign_up_/.test(String((error.body as { code?: unknown } | null)?.code ?? ''));
sample({
  clock: loginFx.failData,
  filter: (error) => error instanceof HttpError && error.status === 401 && !isSignUpRefusal(error),
  target: deactivatedLoginRefused,
});
sample({
  clock: loginFx.failData,
  filter: (error) => !(error instanceof HttpError && error.status === 401) || isSignUpRefusal(error),
  // A throttled address reads the server's own text: retrying at once would fail again.
  fn: (error) =>
    error instanceof HttpError && (error.status === 429 || isSignUpRefusal(error)) && error.detail
      ? error.detail
      : MESSAGES.loginFailed,
  target: $error,
});

sample({ clock: [emailChanged, emailPrefilled], source: $emailEdits, target: lookupIdleFx });
sample({
  clock: lookupIdleFx.doneData,
  source: { edits: $emailEdits, email: $email },
  filter: ({ edits, email }, edit) => edits === edit && LOOKS_LIKE_EMAIL.test(normalizeEmail(email)),
  fn: ({ email }) => normalizeEmail(email),
  target: checkUserFx,
});
$lookup
  .on(checkUserFx.done, (_, { params, result }) => ({ email: params, kind: kindOfRole(result.role) }))
  .on(checkUserFx.fail, (_, { params }) => ({ email: params, kind: null }));
