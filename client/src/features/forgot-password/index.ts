export { $forgotEmail, forgotEmailPrefilled } from './model';
export { ForgotPasswordForm } from './ui/forgot-password-form';
