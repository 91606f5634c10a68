import { useUnit } from 'effector-react';
import { AccountSettings } from '../../../features/account-settings';
import { NotificationRules } from '../../../features/notification-rules';
import { SignOutButton } from '../../../features/sign-out';
import { $detailMode, DecisionPopup, RequestDetail } from '../../../features/user-approval';
import { Dialog } from '../../../shared/ui';
import {
  $accountSettingsOnly,
  $userManagementOpen,
  $userManagementSection,
  userManagementClosed,
  userManagementSectionSelected,
  type UserManagementSection,
} from '../model';
import { SignUpLists } from './sign-up-lists';
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
 * The User Management dialog: the left menu of spec section 2 (Sign Up Request active, Company and
 * SunStop Admin with a disabled look, Account Settings, Exit); Escape or a click outside closes it.
 * Sign Up Request shows the request list and the client list, or a request's detail once opened.
 */
export function UserManagementDialog() {
  const [open, section, detailMode, accountOnly] = useUnit([
    $userManagementOpen,
    $userManagementSection,
    $detailMode,
    $accountSettingsOnly,
  ]);
  const [close, select] = useUnit([userManagementClosed, userManagementSectionSelected]);

  if (accountOnly) {
    // A client: its own Account Settings, without User Management's menu (issue 42).
    return (
      <Dialog open={open} onClose={close} title="Account Settings" width={720} closeOnBackdrop>
        <AccountSettings onBack={() => close()} signOut={<SignOutButton label="Logout Account" />} />
        <NotificationRules />
      </Dialog>
    );
  }

  return (
    <>
      <Dialog open={open} onClose={close} title="User Management" width={960} closeOnBackdrop>
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
              detailMode ? (
                <RequestDetail />
              ) : (
                <SignUpLists />
              )
            ) : (
              <section aria-labelledby="account-settings-title" className={styles.section}>
                <h3 id="account-settings-title" className={styles.heading}>
                  Account Settings
                </h3>
                <AccountSettings onBack={() => select('sign-up-requests')} signOut={<SignOutButton label="Logout Account" />} />
                <NotificationRules />
              </section>
            )}
          </div>
        </div>
      </Dialog>
      <DecisionPopup />
    </>
  );
}
