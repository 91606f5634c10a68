import { useId } from 'react';
import { countDevices, useDevices } from '../../../entities/device';
import { LinkButton, Spinner } from '../../../shared/ui';
import styles from './home-page.module.css';

/** How many devices the user can see, split online / offline. */
export function DeviceSummary() {
  const { state, reload } = useDevices();
  const titleId = useId();
  const counts = state.status === 'ready' ? countDevices(state.devices) : null;

  return (
    <section className={styles.devices} aria-labelledby={titleId} aria-busy={state.status === 'loading'}>
      <h2 id={titleId} className={styles.devicesTitle}>
        Devices visible
      </h2>
      {counts ? (
        <div className={styles.deviceRow}>
          <span className={styles.total} data-testid="device-total">
            {counts.total}
          </span>
          <ul className={styles.split} aria-label="By connection">
            <li className={`${styles.status} ${styles.online}`} data-testid="device-online">
              {counts.online} online
            </li>
            <li className={`${styles.status} ${styles.offline}`} data-testid="device-offline">
              {counts.offline} offline
            </li>
          </ul>
        </div>
      ) : state.status === 'failed' ? (
        <p className={styles.devicesNote} role="alert">
          The devices could not be loaded.
          <LinkButton onClick={() => void reload()}>Try again</LinkButton>
        </p>
      ) : (
        <p className={styles.devicesNote}>
          <Spinner size={16} /> Loading devices…
        </p>
      )}
    </section>
  );
}
