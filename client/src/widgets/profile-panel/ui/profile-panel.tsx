import type { AccessLevel } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId } from 'react';
import { $accessLevel, $canOpenUserManagement, $user } from '../../../entities/session';
import { SignOutButton } from '../../../features/sign-out';
import { ROUTES } from '../../../shared/routing';
import { ExternalIcon, MinusIcon, Panel, PlusIcon } from '../../../shared/ui';
import { userManagementRequested, zoomInRequested, zoomOutRequested } from '../model';
import styles from './profile-panel.module.css';

const ROLE_LABEL: Record<AccessLevel, string> = {
  distributor: 'Distributor',
  client: 'Company',
  'market-partner': 'Market partner',
};

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?';

/**
 * Bottom right of the map: zoom in / out (step 1), the profile image (initials without a
 * profile_url) that opens User Management for every role but client (a client's opens its own Account
 * Settings), the pages that open in a new tab (/exclusive-management for distributors only: it refuses
 * everyone else) and Logout.
 */
export function ProfilePanel({ className }: { className?: string }) {
  const [user, level, canManage] = useUnit([$user, $accessLevel, $canOpenUserManagement]);
  const [zoomIn, zoomOut, openUsers] = useUnit([zoomInRequested, zoomOutRequested, userManagementRequested]);
  const nameId = useId();
  if (!user || !level) return null;
  const name = user.username || user.email;

  const avatar = user.profile_url ? (
    <img className={styles.avatarImage} src={user.profile_url} alt="" width={48} height={48} />
  ) : (
    <span className={styles.initials} aria-hidden="true">
      {initials(name)}
    </span>
  );

  return (
    <div className={[styles.stack, className ?? ''].join(' ')}>
      <div className={styles.zoom} role="group" aria-label="Zoom">
        <button type="button" className={styles.zoomButton} aria-label="Zoom in" title="Zoom in" onClick={() => zoomIn()}>
          <PlusIcon size={20} />
        </button>
        <button type="button" className={styles.zoomButton} aria-label="Zoom out" title="Zoom out" onClick={() => zoomOut()}>
          <MinusIcon size={20} />
        </button>
      </div>
      <Panel className={styles.panel} aria-labelledby={nameId} data-testid="profile-panel" data-access={level}>
        <div className={styles.identity}>
          <button
            type="button"
            className={styles.avatar}
            // The initials shown start the name (WCAG 2.5.3 label in name; axe label-content-name-mismatch).
            aria-label={`${user.profile_url ? '' : `${initials(name)}, `}${canManage ? 'Open User Management' : 'Open Account Settings'}`}
            title={canManage ? 'User Management' : 'Account Settings'}
            data-testid="profile-image"
            // A client has no User Management, but its own Account Settings (issue 42: the notification
            // switches that decide its mails); the dialog shows only those for a client.
            onClick={() => openUsers()}
          >
            {avatar}
          </button>
          <div className={styles.who}>
            <p id={nameId} className={styles.name}>
              {name}
            </p>
            <p className={styles.role} data-testid="user-role">
              {ROLE_LABEL[level]}
              {user.company ? ` · ${user.company}` : ''}
            </p>
          </div>
        </div>
        <nav className={styles.links} aria-label="Reports and management">
          <a className={styles.link} href={ROUTES.status} target="_blank" rel="noopener">
            Status report <ExternalIcon size={14} />
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          {/* Only a distributor manages market partners: the page refuses clients and market-partner users. */}
          {level === 'distributor' ? (
            <a
              className={styles.link}
              href={ROUTES.exclusiveManagement}
              target="_blank"
              rel="noopener"
              data-testid="exclusive-management-link"
            >
              Market partners <ExternalIcon size={14} />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : null}
        </nav>
        <SignOutButton className={styles.logout} />
      </Panel>
    </div>
  );
}
