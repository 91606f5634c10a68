import { useEffect } from 'react';
import { useSession } from '../entities/session';
import { HomePage } from '../pages/home';
import { DEACTIVATED_URL, LoginPage } from '../pages/login';
import { SessionLoading, SessionUnavailable } from './session-screens';

/** Picks the page from the session: login page, signed-in shell, or the states in between. */
export function App() {
  const session = useSession();
  const { state } = session;

  useEffect(() => {
    // A deactivated account's token was just cleared: the login page explains why.
    if (state.status === 'deactivated') window.location.replace(DEACTIVATED_URL);
  }, [state.status]);

  switch (state.status) {
    case 'checking':
    case 'deactivated':
      return <SessionLoading />;
    case 'unavailable':
      return <SessionUnavailable onRetry={() => void session.retry()} />;
    case 'signed-in':
      return <HomePage user={state.user} />;
    case 'anonymous':
      return <LoginPage onSignedIn={session.start} />;
  }
}
