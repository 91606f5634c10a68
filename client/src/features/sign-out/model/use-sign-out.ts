import { useState } from 'react';
import { logout } from '../../../entities/session';
import { clearToken } from '../../../shared/api';

/** Logout: revoke the token on the server (best effort), forget the cookie, back to the login page. */
export function useSignOut() {
  const [pending, setPending] = useState(false);
  const signOut = async () => {
    setPending(true);
    try {
      await logout();
    } catch {
      // An expired or already revoked token still signs out locally.
    }
    clearToken();
    window.location.assign('/');
  };
  return { signOut, pending };
}
