import { useEffect, useState } from 'react';
import { useDebouncedValue, normalizeEmail } from '../../../shared/lib';
import { checkUser } from '../api/sign-in-api';

/** How long typing must pause before the role of the entered email is looked up. */
export const ROLE_LOOKUP_IDLE_MS = 2000;

/** The indicator the login form lights: 'company' for client accounts, 'distributor' for distributors. */
export type AccountKind = 'company' | 'distributor';

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function kindOf(role: string): AccountKind | null {
  if (role === 'distributor') return 'distributor';
  if (role === 'client') return 'company';
  return null;
}

/**
 * The account kind of `email`, looked up with GET /api/v1/checkUser once typing has paused for
 * ROLE_LOOKUP_IDLE_MS. Unknown emails (404) light nothing; editing the email turns the light off
 * until the next lookup answers.
 */
export function useRoleLookup(email: string): AccountKind | null {
  const current = normalizeEmail(email);
  const settled = useDebouncedValue(current, ROLE_LOOKUP_IDLE_MS);
  const [result, setResult] = useState<{ email: string; kind: AccountKind | null } | null>(null);

  useEffect(() => {
    if (!LOOKS_LIKE_EMAIL.test(settled)) return;
    const controller = new AbortController();
    checkUser(settled, controller.signal)
      .then(({ role }) => setResult({ email: settled, kind: kindOf(role) }))
      .catch(() => {
        if (!controller.signal.aborted) setResult({ email: settled, kind: null });
      });
    return () => controller.abort();
  }, [settled]);

  return result && result.email === current ? result.kind : null;
}
