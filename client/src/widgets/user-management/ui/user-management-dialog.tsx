import { useUnit } from 'effector-react';
import { $accessLevel } from '../../../entities/session';
import { SignOutButton } from '../../../features/sign-out';
import { Dialog } from '../../../shared/ui';
import { $userManagementOpen, $userManagementSection, userManagementClosed, userManagementSectionSelected, type UserManagementSection } from '../model';
import styles from './user-management-dialog.module.css';

type MenuItem = { key: UserManagementSection | 'company' | 'admin' | 'exit'; label: string; disabled?: boolean };

const MENU: MenuItem[] = [
  { key: 'sign-up-requests', label: 'Sign Up Request' },
  { key: 'company', label: 'Company', disabled: true },
  { key: 'admin', label: 'SunStop Admin', disabled: true },
  { key: 'account-settings', label: 'Account Settings' },
  { key: 'exit', label: 'Exit' },
];

/**
 * The User Management dialog shell: the left menu of spec section 2 (Sign Up Request active, Company
 * and SunStop Admin with a disabled look, Account Settings, Exit); Escape or a click outside closes it.
 * The sign-up request list, client list and account settings form come with the users issue.
 */
export function UserManagementDialog() {
  const [open, section, level] = useUnit([$userManagementOpen, $userManagementSection, $accessLevel]);
  const [close, select] = useUnit([userManagementClosed, userManagementSectionSelected]);

  return (
    <Dialog open={open} onClose={close} title="User Management" width={880} closeOnBackdrop>
      <div className={styles.layout}>
        <nav className={styles.menu} aria-label="User Management">
          <ul>
            {MENU.map((item) => {
              const current = item.key === section;
              return (
                <li key={item.key}>
                  <button
                    type="button"
                    className={styles.item}
                    aria-current={current ? 'page' : undefined}
                    aria-disabled={item.disabled || undefined}
                    title={item.disabled ? 'Not available yet' : undefined}
                    onClick={() => {
                      if (item.disabled) return;
                      if (item.key === 'exit') close();
                      else select(item.key as UserManagementSection);
                    }}
                  >
                    {item.label}
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className={styles.content}>
          {section === 'sign-up-requests' ? (
            <section aria-label="Sign Up Request">
              <h3 className={styles.heading}>Sign Up Request</h3>
              <p>
                Accounts waiting for activation will be listed here with their name, company and type
                {level === 'market-partner' ? '' : ', and a View Detail button to activate or reject them'}.
              </p>
            </section>
          ) : (
            <section aria-label="Account Settings">
              <h3 className={styles.heading}>Account Settings</h3>
              <p>Your profile, notification and report settings will be edited here.</p>
              <div className={styles.actions}>
                <SignOutButton label="Logout Account" />
              </div>
            </section>
          )}
        </div>
      </div>
    </Dialog>
  );
}
