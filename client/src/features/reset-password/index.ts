export { $resetToken, resetCleared, resetPasswordFx, resetTokenReceived } from './model';
export { ResetPasswordForm } from './ui/reset-password-form';
