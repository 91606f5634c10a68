import { Button, FormMessage, LinkButton, PasswordField, TextField } from '../../../shared/ui';
import { useRoleLookup } from '../model/use-role-lookup';
import { useSignIn, type SignInCallbacks } from '../model/use-sign-in';
import { AccountKindIndicators } from './account-kind-indicators';
import styles from './sign-in-form.module.css';

export type SignInFormProps = SignInCallbacks & {
  /** 'Forgot Password?': the email typed so far pre-fills the reset view. */
  onForgotPassword: (email: string) => void;
  /** The email to start with (coming back from the reset view). */
  initialEmail?: string;
};

/** The SIGN IN view: account kind indicators, email, password, Login; Enter submits. */
export function SignInForm({ onSignedIn, onDeactivated, onForgotPassword, initialEmail }: SignInFormProps) {
  const form = useSignIn({ onSignedIn, onDeactivated }, initialEmail);
  const kind = useRoleLookup(form.email);

  return (
    <form className={styles.form} onSubmit={form.submit} noValidate aria-label="Sign in">
      <AccountKindIndicators active={kind} />
      <TextField
        label="Email"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        value={form.email}
        onChange={(e) => form.setEmail(e.target.value)}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={form.password}
        onChange={(e) => form.setPassword(e.target.value)}
      />
      <div className={styles.forgotRow}>
        <LinkButton onClick={() => onForgotPassword(form.email)}>Forgot Password?</LinkButton>
      </div>
      <FormMessage tone="error">{form.error}</FormMessage>
      <Button type="submit" block loading={form.pending}>
        Login
      </Button>
    </form>
  );
}
