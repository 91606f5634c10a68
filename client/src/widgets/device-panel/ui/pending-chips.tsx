import { pendingIndicators } from '../lib/panel-lib';
import type { PanelDevice } from '../model';
import styles from './pending-chips.module.css';

/** The amber pending markers (ACTIVATION, REBOOT, RENTAL) until the device picks the change up (spec section 4). */
export function PendingChips({ device }: { device: PanelDevice }) {
  return (
    <span className={styles.indicators} role="status" aria-label="Pending changes">
      {pendingIndicators(device.pending_flags).map((i) => (
        <span key={i} className={styles.pendingChip}>
          {i}
        </span>
      ))}
    </span>
  );
}
