export { DEACTIVATED_FLAG, DEACTIVATED_URL } from './model/use-deactivated-notice';
export { LoginPage, type LoginPageProps } from './ui/login-page';
