import { firstErrorMessage, MESSAGES, authApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { call, HttpError } from '../../shared/api';
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

/** The required fields (spec section 5) with the labels the form shows them under. */
export const REQUIRED_SIGN_UP_FIELDS: readonly (readonly [SignUpField, string])[] = [
  ['username', 'Name'],
  ['company', 'Company'],
  ['email', 'Email'],
  ['password', 'Password'],
];
/** The required fields left blank, in the form's order. */
export const blankRequiredFields = (form: SignUpForm): SignUpField[] =>
  REQUIRED_SIGN_UP_FIELDS.filter(([field]) => !form[field].trim()).map(([field]) => field);
/**
 * 'Name, Company, Email and Password are required.': every blank required field named at once (issue 42:
 * the server's rule shows the password's message first, so an empty form named only the password).
 */
export function blankFieldsMessage(fields: readonly SignUpField[]): string {
  const labels = REQUIRED_SIGN_UP_FIELDS.filter(([field]) => fields.includes(field)).map(([, label]) => label);
  const list = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : (labels[0] ?? '');
  return `${list} ${labels.length > 1 ? 'are' : 'is'} required.`;
}

export const signUpFieldChanged = createEvent<{ field: SignUpField; value: string }>();
export const notificationToggled = createEvent<NotificationChannel>();
export const signUpSubmitted = createEvent();
export const signUpReset = createEvent();

export const signUpFx = createEffect<SignUpPayload, unknown, Error>((payload) => call(authApi.signUp, { body: payload }));

export const $signUpForm = createStore<SignUpForm>(EMPTY_SIGN_UP_FORM);
export const $signUpResult = createStore<SignUpResult>({ status: 'idle' });
export const $signUpPending = signUpFx.pending;
/** The required fields found blank at the last Sign Up (marked invalid until each is edited). */
export const $signUpBlank = createStore<SignUpField[]>([]);

/** The button's text in each state. */
export const signUpButtonText = (result: SignUpResult): string =>
  result.status === 'success'
    ? MESSAGES.signUpSuccess
    : result.status === 'failure'
      ? `${MESSAGES.signUpFailPrefix}${result.message}`
      : 'Sign Up';
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
  .on(signUpFx.failData, (_, error) => ({
    status: 'failure',
    message: firstErrorMessage(error instanceof HttpError ? error.body : null),
  }))
  .reset(signUpFieldChanged, notificationToggled, signUpReset);

const submitted = sample({
  clock: signUpSubmitted,
  source: { form: $signUpForm, pending: $signUpPending },
  filter: ({ pending }) => !pending,
  fn: ({ form }) => form,
});
// A blank required field is named before anything is sent (the server would refuse it too).
const blankFound = sample({ clock: submitted, filter: (form) => blankRequiredFields(form).length > 0, fn: blankRequiredFields });
$signUpBlank
  .on(blankFound, (_, blank) => blank)
  .on(signUpFieldChanged, (blank, { field }) => blank.filter((f) => f !== field))
  .reset(signUpReset);
$signUpResult.on(blankFound, (_, blank) => ({ status: 'failure', message: blankFieldsMessage(blank) }));
sample({ clock: submitted, filter: (form) => blankRequiredFields(form).length === 0, fn: toSignUpPayload, target: signUpFx });
