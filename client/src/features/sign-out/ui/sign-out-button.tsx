import { useUnit } from 'effector-react';
import { logoutFx, logoutRequested } from '../../../entities/session';
import { Button, LogoutIcon } from '../../../shared/ui';

/** Logout: revoke the token (best effort), forget the userToken cookie, back to /. */
export function SignOutButton({ className, label = 'Logout' }: { className?: string; label?: string }) {
  const [signOut, pending] = useUnit([logoutRequested, logoutFx.pending]);
  return (
    <Button variant="secondary" className={className} loading={pending} onClick={() => signOut()}>
      {pending ? null : <LogoutIcon size={18} />}
      {label}
    </Button>
  );
}
