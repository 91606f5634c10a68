import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { formatNumber } from '@fleet/shared';
import { BellIcon } from '../../../shared/ui';
import { $latestNotice, $unread, bellClicked, bellStarted } from '../model';
import styles from './alerts-bell.module.css';

/** The accessible name: it starts with 'Notifications' (issue 43) and says the count in words. */
export const bellLabel = (unread: number) => `Notifications, ${unread === 0 ? 'none unread' : `${formatNumber(unread)} unread`}`;

/** The bell: opens the Incidents view; its badge is the unread count, and a new notice is announced once. */
export function AlertsBell() {
  const [unread, latest, start, click] = useUnit([$unread, $latestNotice, bellStarted, bellClicked]);
  useEffect(() => start(), [start]);
  return (
    <div className={styles.wrap}>
      <button
        type="button"
        className={styles.bell}
        aria-label={bellLabel(unread)}
        title="Notifications"
        data-testid="alerts-bell"
        onClick={() => click()}
      >
        <BellIcon size={22} />
        {unread > 0 ? (
          <span className={styles.badge} aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      <p className="visually-hidden" role="status">
        {latest ? `New ${latest.severity} incident: ${latest.reason}${latest.site ? ` at ${latest.site}` : ''}.` : ''}
      </p>
    </div>
  );
}
