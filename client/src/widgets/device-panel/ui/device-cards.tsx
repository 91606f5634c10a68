import { warningText } from '@fleet/shared';
import { CONNECTION_TEXT, connectionOf, type Device } from '../../../entities/device';
import { AlertIcon, cardClass, PauseIcon } from '../../../shared/ui';
import { cardName, twoDigits } from '../lib/panel-lib';
import type { PanelDevice } from '../model';
import styles from './device-cards.module.css';

/**
 * The right column (spec section 2): the group's devices by number. A card shows the two-digit number,
 * single or dual batch, the connection dot, warning and batch-warning marks; the current device expands
 * with its site name and warning list; a paused device is highlighted; a deactivated one is marked.
 */
export function DeviceCards({
  devices,
  current,
  onSelect,
  chosen = null,
}: {
  devices: readonly Device[];
  current: PanelDevice | null;
  onSelect: (serial: string) => void;
  /** Multi-select mode (Device Subscription): the serials picked; the cards become checkboxes. */
  chosen?: readonly string[] | null;
}) {
  return (
    <ul className={styles.cards}>
      {devices.map((listed) => {
        const isCurrent = listed.serial === current?.serial;
        // The current device's card reads the panel's copy (pushed every 10 s), the others the pins' copy.
        const d = (isCurrent && current ? current : listed) as Device;
        const connection = connectionOf(d);
        return (
          <li key={d.serial}>
            <button
              type="button"
              className={[cardClass, styles.card, isCurrent ? styles.cardCurrent : '', d.is_pause ? styles.cardPaused : ''].join(
                ' ',
              )}
              aria-current={isCurrent ? 'true' : undefined}
              {...(chosen
                ? {
                    role: 'checkbox',
                    'aria-checked': chosen.includes(d.serial),
                    // The current device cannot be deselected (spec section 2).
                    'aria-disabled': isCurrent || undefined,
                  }
                : {})}
              data-chosen={chosen?.includes(d.serial) || undefined}
              onClick={() => onSelect(d.serial)}
              data-serial={d.serial}
            >
              <span className={styles.cardTop}>
                <span className={styles.cardNumber}>{twoDigits(d.number)}</span>
                <span
                  role="img"
                  className={styles.batchIcon}
                  title={d.batch2 ? 'Dual batch' : 'Single batch'}
                  aria-label={d.batch2 ? 'Dual batch' : 'Single batch'}
                >
                  {d.batch2 ? '▮▮' : '▮'}
                </span>
                <span
                  role="img"
                  className={[styles.dot, styles[connection]].join(' ')}
                  title={CONNECTION_TEXT[connection]}
                  aria-label={CONNECTION_TEXT[connection]}
                />
                {d.is_warning ? (
                  <span role="img" className={styles.warnIcon} aria-label="Warning" title="Warning">
                    <AlertIcon size={16} />
                  </span>
                ) : null}
                {d.is_batch_warning ? (
                  <span role="img" className={styles.batchWarn} title="Batch warning" aria-label="Batch warning">
                    B
                  </span>
                ) : null}
                {d.is_pause ? (
                  <span role="img" className={styles.pausedIcon} aria-label="Paused" title="Paused">
                    <PauseIcon size={14} />
                  </span>
                ) : null}
              </span>
              {!d.is_activated ? <span className={styles.deactivated}>DEACTIVATED</span> : null}
              {isCurrent ? (
                <span className={styles.cardMore}>
                  <span className={styles.cardName} title={d.label || 'NoName'}>
                    {cardName(d.label || 'NoName')}
                  </span>
                  {d.warning_lists.length ? (
                    <span className={styles.cardWarnings}>
                      {d.warning_lists.map((w) => (
                        <span key={w}>{warningText(w)}</span>
                      ))}
                    </span>
                  ) : null}
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
