import { MESSAGES } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId, type FormEvent } from 'react';
import { Button, FormMessage, PasswordField } from '../../../shared/ui';
import {
  $newPassword,
  $repeatPassword,
  $resetPending,
  $resetProblem,
  $resetResult,
  $resetSettled,
  newPasswordChanged,
  repeatPasswordChanged,
  resetSubmitted,
} from '../model';
import styles from './reset-password-form.module.css';

export type ResetPasswordFormProps = {
  /** 'Cancel' returns to sign in. */
  onCancel: () => void;
};

/** RESET PASSWORD: New Password, Repeat New Password, Reset Password (green on success), Cancel. */
export function ResetPasswordForm({ onCancel }: ResetPasswordFormProps) {
  const [password, repeat, problem, result, pending, settled] = useUnit([
    $newPassword,
    $repeatPassword,
    $resetProblem,
    $resetResult,
    $resetPending,
    $resetSettled,
  ]);
  const [onPassword, onRepeat, submit] = useUnit([newPasswordChanged, repeatPasswordChanged, resetSubmitted]);
  const titleId = useId();
  const hintId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        Reset Password
      </h2>
      <p id={hintId} className={styles.hint}>
        At least 8 characters with an uppercase letter, a lowercase letter and a digit.
      </p>
      <PasswordField
        label="New Password"
        name="new-password"
        autoComplete="new-password"
        autoFocus
        aria-describedby={hintId}
        disabled={settled}
        value={password}
        onChange={(e) => onPassword(e.target.value)}
      />
      <PasswordField
        label="Repeat New Password"
        name="repeat-new-password"
        autoComplete="new-password"
        disabled={settled}
        value={repeat}
        onChange={(e) => onRepeat(e.target.value)}
      />
      <FormMessage tone="error">{problem}</FormMessage>
      <div role="status" aria-live="polite">
        <Button
          type="submit"
          block
          loading={pending}
          // aria-disabled, not disabled: the focus stays on the button that now reads the success, and the
          // model ignores a second submit.
          aria-disabled={settled || undefined}
          className={settled ? styles.settled : undefined}
          variant={result === 'success' ? 'success' : 'primary'}
          data-result={result}
        >
          {result === 'success' ? MESSAGES.resetSuccess : 'Reset Password'}
        </Button>
        {settled ? <p className={styles.settledHint}>Sign in with your new password.</p> : null}
      </div>
      <Button variant="secondary" block onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}
