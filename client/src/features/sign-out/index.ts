export { useSignOut } from './model/use-sign-out';
export { SignOutButton } from './ui/sign-out-button';
