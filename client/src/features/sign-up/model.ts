import { firstErrorMessage, MESSAGES } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { http, HttpError } from '../../shared/api';
import { normalizeEmail } from '../../shared/lib';

/**
 * The SIGN UP view (spec sections 2-5): sign up as Distributor only (Company is shown greyed), Name,
 * Company, Email, Mobile Phone Number (optional), Password, notification ticks beside email and phone.
 * The button turns 'Sign Up Success !' or 'Sign Up Fail : {message}'; editing any field clears it.
 */
export type SignUpField = 'username' | 'company' | 'email' | 'phone' | 'password';
export type NotificationChannel = 'email' | 'phone';

export type SignUpForm = Record<SignUpField, string> & {
  isEnableNotificationEmail: boolean;
  isEnableNotificationPhone: boolean;
};

export type SignUpResult = { status: 'idle' } | { status: 'success' } | { status: 'failure'; message: string };

/** The body of POST /auth/users/ (spec section 3, sign-up payload). */
export type SignUpPayload = {
  isEnableNotificationEmail: boolean;
  isEnableNotificationPhone: boolean;
  email: string;
  username: string;
  password: string;
  role: 'distributor';
  company: string;
  phone: string;
};

export const EMPTY_SIGN_UP_FORM: SignUpForm = {
  username: '',
  company: '',
  email: '',
  phone: '',
  password: '',
  isEnableNotificationEmail: false,
  isEnableNotificationPhone: false,
};

export const signUpFieldChanged = createEvent<{ field: SignUpField; value: string }>();
export const notificationToggled = createEvent<NotificationChannel>();
export const signUpSubmitted = createEvent();
export const signUpReset = createEvent();

export const signUpFx = createEffect<SignUpPayload, unknown, Error>((payload) => http('/auth/users/', { method: 'POST', json: payload }));

export const $signUpForm = createStore<SignUpForm>(EMPTY_SIGN_UP_FORM);
export const $signUpResult = createStore<SignUpResult>({ status: 'idle' });
export const $signUpPending = signUpFx.pending;

/** The button's text in each state. */
export const signUpButtonText = (result: SignUpResult): string =>
  result.status === 'success' ? MESSAGES.signUpSuccess : result.status === 'failure' ? `${MESSAGES.signUpFailPrefix}${result.message}` : 'Sign Up';
export const $signUpButtonText = $signUpResult.map(signUpButtonText);

export const toSignUpPayload = (form: SignUpForm): SignUpPayload => ({
  isEnableNotificationEmail: form.isEnableNotificationEmail,
  isEnableNotificationPhone: form.isEnableNotificationPhone,
  email: normalizeEmail(form.email),
  username: form.username.trim(),
  password: form.password,
  role: 'distributor',
  company: form.company.trim(),
  phone: form.phone.trim(),
});

$signUpForm
  .on(signUpFieldChanged, (form, { field, value }) => ({ ...form, [field]: value }))
  .on(notificationToggled, (form, channel) =>
    channel === 'email'
      ? { ...form, isEnableNotificationEmail: !form.isEnableNotificationEmail }
      : { ...form, isEnableNotificationPhone: !form.isEnableNotificationPhone },
  )
  .reset(signUpReset);

$signUpResult
  .on(signUpFx.done, () => ({ status: 'success' }))
  // The server's `{ field: [messages] }`: the password's first message, else the first element.
  .on(signUpFx.failData, (_, error) => ({ status: 'failure', message: firstErrorMessage(error instanceof HttpError ? error.body : null) }))
  .reset(signUpFieldChanged, notificationToggled, signUpReset);

sample({
  clock: signUpSubmitted,
  source: { form: $signUpForm, pending: $signUpPending },
  filter: ({ pending }) => !pending,
  fn: ({ form }) => toSignUpPayload(form),
  target: signUpFx,
});
