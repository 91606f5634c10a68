export {
  $forgotEmail,
  $forgotOutcome,
  $forgotPending,
  forgotEmailChanged,
  forgotEmailPrefilled,
  forgotSubmitted,
  requestResetFx,
  type ForgotOutcome,
} from './model';
export { ForgotPasswordForm, type ForgotPasswordFormProps } from './ui/forgot-password-form';
