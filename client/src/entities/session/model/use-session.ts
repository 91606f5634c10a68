import type { CurrentUser } from '@fleet/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { clearToken, HttpError, readToken, saveToken } from '../../../shared/api';
import { fetchCurrentUser } from '../api/session-api';

export type SessionState =
  | { status: 'checking' }
  | { status: 'anonymous' }
  | { status: 'signed-in'; user: CurrentUser }
  /** The token belongs to a deactivated account (403): the cookie is already cleared. */
  | { status: 'deactivated' }
  /** The server could not answer (network, 5xx): the token is kept so a retry can succeed. */
  | { status: 'unavailable' };

/**
 * The session behind the `userToken` cookie. On start, and after each sign-in, the token is checked
 * with GET /api/v1/user: 200 signs in, 401 forgets the token, 403 forgets it and reports deactivation.
 * Plain React state for now; the transitions are small enough to move into an Effector model as is.
 */
export function useSession() {
  const [state, setState] = useState<SessionState>(() => (readToken() ? { status: 'checking' } : { status: 'anonymous' }));
  const pending = useRef<AbortController | null>(null);

  const check = useCallback(async () => {
    pending.current?.abort();
    if (!readToken()) {
      setState({ status: 'anonymous' });
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    setState({ status: 'checking' });
    try {
      const user = await fetchCurrentUser(controller.signal);
      if (!controller.signal.aborted) setState({ status: 'signed-in', user });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        clearToken();
        setState({ status: error.status === 401 ? 'anonymous' : 'deactivated' });
      } else {
        setState({ status: 'unavailable' });
      }
    }
  }, []);

  useEffect(() => {
    void check();
    return () => pending.current?.abort();
  }, [check]);

  /** After a successful login: keep the token in the session cookie, then load the user. */
  const start = useCallback(
    (token: string) => {
      saveToken(token);
      void check();
    },
    [check],
  );

  return { state, start, retry: check };
}
