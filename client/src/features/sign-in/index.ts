export { checkUser, login, type UserKind } from './api/sign-in-api';
export { ROLE_LOOKUP_IDLE_MS, useRoleLookup, type AccountKind } from './model/use-role-lookup';
export { useSignIn, type SignInCallbacks } from './model/use-sign-in';
export { SignInForm, type SignInFormProps } from './ui/sign-in-form';
