import { useId } from 'react';
import { Button, FormMessage, LinkButton, TextField } from '../../../shared/ui';
import { useForgotPassword } from '../model/use-forgot-password';
import styles from './forgot-password-form.module.css';

export type ForgotPasswordFormProps = {
  initialEmail?: string;
  /** 'Back' to sign in, with the email as last edited. */
  onBack: (email: string) => void;
};

/** The forgot-password view: 'Reset Password', Email, 'Send Password to Email', 'Back'. */
export function ForgotPasswordForm({ initialEmail, onBack }: ForgotPasswordFormProps) {
  const form = useForgotPassword(initialEmail);
  const titleId = useId();

  return (
    <form className={styles.form} onSubmit={form.submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        Reset Password
      </h2>
      <p className={styles.hint}>Enter the email of your account and we will mail you a link to choose a new password.</p>
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
      <FormMessage tone={form.outcome?.tone ?? 'error'}>{form.outcome?.text}</FormMessage>
      <Button type="submit" block loading={form.pending}>
        Send Password to Email
      </Button>
      <LinkButton className={styles.back} onClick={() => onBack(form.email)}>
        Back
      </LinkButton>
    </form>
  );
}
