import { useUnit } from 'effector-react';
import { useId, type FormEvent } from 'react';
import { Button, FormMessage, LinkButton, TextField } from '../../../shared/ui';
import { $forgotEmail, $forgotOutcome, $forgotPending, forgotEmailChanged, forgotSubmitted } from '../model';
import styles from './forgot-password-form.module.css';

export type ForgotPasswordFormProps = {
  /** 'Back' to sign in. */
  onBack: () => void;
};

/** The forgot-password view: 'Reset Password', Email, 'Send Password to Email', 'Back'. */
export function ForgotPasswordForm({ onBack }: ForgotPasswordFormProps) {
  const [email, outcome, pending] = useUnit([$forgotEmail, $forgotOutcome, $forgotPending]);
  const [onEmail, submit] = useUnit([forgotEmailChanged, forgotSubmitted]);
  const titleId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
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
        value={email}
        onChange={(e) => onEmail(e.target.value)}
      />
      <FormMessage tone={outcome?.tone ?? 'error'}>{outcome?.text}</FormMessage>
      <Button type="submit" block loading={pending}>
        Send Password to Email
      </Button>
      <LinkButton className={styles.back} onClick={onBack}>
        Back
      </LinkButton>
    </form>
  );
}
