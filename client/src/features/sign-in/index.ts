export { $email, deactivatedLoginRefused, emailPrefilled, signedIn } from './model';
export { SignInForm } from './ui/sign-in-form';
