import { useUnit } from 'effector-react';
import type { FormEvent } from 'react';
import { Button, FormMessage, LinkButton, PasswordField, TextField } from '../../../shared/ui';
import { $accountKind, $email, $error, $password, $pending, emailChanged, passwordChanged, signInSubmitted } from '../model';
import { AccountKindIndicators } from './account-kind-indicators';
import styles from './sign-in-form.module.css';

export type SignInFormProps = {
  /** 'Forgot Password?' */
  onForgotPassword: () => void;
};

/** The SIGN IN view: account kind indicators, email, password, Login; Enter submits. */
export function SignInForm({ onForgotPassword }: SignInFormProps) {
  const [email, password, error, pending, kind] = useUnit([$email, $password, $error, $pending, $accountKind]);
  const [onEmail, onPassword, submit] = useUnit([emailChanged, passwordChanged, signInSubmitted]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Sign in">
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
        value={email}
        onChange={(e) => onEmail(e.target.value)}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
      />
      <div className={styles.forgotRow}>
        <LinkButton onClick={onForgotPassword}>Forgot Password?</LinkButton>
      </div>
      <FormMessage tone="error">{error}</FormMessage>
      <Button type="submit" block loading={pending}>
        Login
      </Button>
    </form>
  );
}
