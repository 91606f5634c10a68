import { Button, LogoutIcon } from '../../../shared/ui';
import { useSignOut } from '../model/use-sign-out';

export function SignOutButton({ className }: { className?: string }) {
  const { signOut, pending } = useSignOut();
  return (
    <Button variant="secondary" className={className} loading={pending} onClick={() => void signOut()}>
      {pending ? null : <LogoutIcon size={18} />}
      Logout
    </Button>
  );
}
