export { signUpReset } from './model';
export { SignUpForm as SignUpFormView } from './ui/sign-up-form';
