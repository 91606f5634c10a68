export {
  $authView,
  $signInMode,
  authTabSelected,
  forgotPasswordClosed,
  forgotPasswordOpened,
  RESET_TOKEN_PARAM,
  resetPasswordClosed,
  signUpClosed,
  type AuthView,
  type SignInMode,
} from './model';
export { AuthModal } from './ui/auth-modal';
