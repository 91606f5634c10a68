import { MESSAGES } from '@fleet/shared';
import { useState, type FormEvent } from 'react';
import { normalizeEmail } from '../../../shared/lib';
import { requestPasswordReset } from '../api/forgot-password-api';

export type ForgotPasswordOutcome = { tone: 'success' | 'error'; text: string } | null;

/** The reset request: 'Confirmation email has been Sent!' or 'Email Incorrect!', cleared by editing the email. */
export function useForgotPassword(initialEmail = '') {
  const [email, setEmailValue] = useState(initialEmail);
  const [outcome, setOutcome] = useState<ForgotPasswordOutcome>(null);
  const [pending, setPending] = useState(false);

  const setEmail = (value: string) => {
    setEmailValue(value);
    setOutcome(null);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    setPending(true);
    setOutcome(null);
    try {
      await requestPasswordReset(normalizeEmail(email));
      setOutcome({ tone: 'success', text: MESSAGES.forgotSent });
    } catch {
      setOutcome({ tone: 'error', text: MESSAGES.forgotFailed });
    } finally {
      setPending(false);
    }
  };

  return { email, setEmail, outcome, pending, submit };
}
