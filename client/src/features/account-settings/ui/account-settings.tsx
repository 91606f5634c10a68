import { useUnit } from 'effector-react';
import type { ReactNode } from 'react';
import { AccountFormFrame } from '../../../entities/user';
import { Button } from '../../../shared/ui';
import { $savedNotice, settingsForm } from '../model';
import styles from './account-settings.module.css';

/**
 * Account Settings: the own account form with Edit Account (then Save/Cancel), Logout Account and Back.
 * `signOut` is the Logout Account button, passed in by the widget that shows this (features do not
 * import each other).
 */
export function AccountSettings({ onBack, signOut }: { onBack: () => void; signOut: ReactNode }) {
  const [saved, edit] = useUnit([$savedNotice, settingsForm.editStarted]);
  return (
    <div data-testid="account-settings">
      <AccountFormFrame
        model={settingsForm}
        idPrefix="account"
        actions={
          <>
            <Button variant="secondary" onClick={() => onBack()}>
              Back
            </Button>
            {signOut}
            <Button onClick={() => edit()}>Edit Account</Button>
          </>
        }
      >
        <p className={styles.saved} role="status" data-testid="account-saved">
          {saved ? 'Account saved.' : ''}
        </p>
      </AccountFormFrame>
    </div>
  );
}
