import { MESSAGES } from '@fleet/shared';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../shared/api';
import { normalizeEmail } from '../../../shared/lib';
import { login } from '../api/sign-in-api';

export type SignInCallbacks = {
  /** The credentials were accepted: the new API token. */
  onSignedIn: (token: string) => void;
  /** The account exists but is deactivated or not yet approved (401). */
  onDeactivated: () => void;
};

/**
 * The sign-in form's state and submit. No client-side required check: the server answers for
 * empty fields too. A wrong email or password reads MESSAGES.loginFailed; a throttled address reads
 * the server's own 'Too many login attempts...' text, since retrying at once would fail again.
 */
export function useSignIn({ onSignedIn, onDeactivated }: SignInCallbacks, initialEmail = '') {
  const [email, setEmailValue] = useState(initialEmail);
  const [password, setPasswordValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const setEmail = (value: string) => {
    setEmailValue(value);
    setError(null);
  };
  const setPassword = (value: string) => {
    setPasswordValue(value);
    setError(null);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const { auth_token } = await login(normalizeEmail(email), password);
      setPending(false);
      onSignedIn(auth_token);
    } catch (err) {
      setPending(false);
      if (err instanceof HttpError && err.status === 401) {
        onDeactivated();
      } else if (err instanceof HttpError && err.status === 429 && err.detail) {
        setError(err.detail);
      } else {
        setError(MESSAGES.loginFailed);
      }
    }
  };

  return { email, setEmail, password, setPassword, error, pending, submit };
}
