import { MapBackdrop } from '../../../shared/ui';
import { AuthModal } from '../../../widgets/auth-modal';
import { DeactivatedDialog } from '../../../widgets/deactivated-dialog';
import styles from './login-page.module.css';

/** The login page: the auth modal centred over the map-like backdrop, and the Account Deactivated dialog. */
export function LoginPage() {
  return (
    <MapBackdrop>
      <main className={styles.main}>
        <AuthModal />
      </main>
      <DeactivatedDialog />
    </MapBackdrop>
  );
}
