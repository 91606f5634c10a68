export {
  $newPassword,
  $repeatPassword,
  $resetPending,
  $resetProblem,
  $resetResult,
  $resetSettled,
  $resetToken,
  newPasswordChanged,
  repeatPasswordChanged,
  resetCleared,
  resetPasswordFx,
  resetSubmitted,
  resetTokenReceived,
  type ResetResult,
} from './model';
export { ResetPasswordForm, type ResetPasswordFormProps } from './ui/reset-password-form';
