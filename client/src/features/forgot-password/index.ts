export { requestPasswordReset } from './api/forgot-password-api';
export { useForgotPassword, type ForgotPasswordOutcome } from './model/use-forgot-password';
export { ForgotPasswordForm, type ForgotPasswordFormProps } from './ui/forgot-password-form';
