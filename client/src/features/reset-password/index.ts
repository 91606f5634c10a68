export {
  $resetToken,
  resetCleared,
  resetTokenReceived,
} from './model';
export { ResetPasswordForm } from './ui/reset-password-form';
