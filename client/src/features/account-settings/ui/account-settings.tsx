import { useUnit } from 'effector-react';
import { AccountFormFrame } from '../../../entities/user';
import { Button } from '../../../shared/ui';
import { SignOutButton } from '../../sign-out';
import { $savedNotice, settingsForm } from '../model';
import styles from './account-settings.module.css';

/** Account Settings: the own account form with Edit Account (then Save/Cancel), Logout Account and Back. */
export function AccountSettings({ onBack }: { onBack: () => void }) {
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
            <SignOutButton label="Logout Account" />
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
