import { MapBackdrop } from '../../../shared/ui';
import { AuthModal } from '../../../widgets/auth-modal';
import { DeactivatedDialog } from '../../../widgets/deactivated-dialog';
import { useDeactivatedNotice } from '../model/use-deactivated-notice';
import styles from './login-page.module.css';

export type LoginPageProps = {
  /** A login succeeded with this API token. */
  onSignedIn: (token: string) => void;
};

/** The login page: the auth modal centred over the map-like backdrop, and the Account Deactivated dialog. */
export function LoginPage({ onSignedIn }: LoginPageProps) {
  const deactivated = useDeactivatedNotice();
  return (
    <MapBackdrop>
      <main className={styles.main}>
        <AuthModal onSignedIn={onSignedIn} onDeactivated={deactivated.show} />
      </main>
      <DeactivatedDialog open={deactivated.open} onClose={deactivated.close} />
    </MapBackdrop>
  );
}
