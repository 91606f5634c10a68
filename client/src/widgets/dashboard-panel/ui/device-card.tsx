import { warningText } from '@fleet/shared';
import { connectionOf, CONNECTION_TEXT, type Device } from '../../../entities/device';
import { DualDeviceIcon } from '../../../shared/ui';
import styles from './dashboard-panel.module.css';

/** The height of one card in the virtual list, gap included (the card never grows: long text is cut). */
export const DEVICE_CARD_HEIGHT = 124;

type Props = { device: Device; showDual: boolean; selected: boolean; onOpen: (serial: string) => void };

/** A device in a filter list: name, market-partner chips, address, serial, PAUSED, warnings in words. */
export function DeviceCard({ device: d, showDual, selected, onOpen }: Props) {
  const connection = connectionOf(d);
  const warnings = d.is_warning ? d.warning_lists.map(warningText) : [];
  return (
    <button
      type="button"
      className={[styles.deviceCard, d.is_pause ? styles.pausedCard : '', d.is_warning ? styles.warningCard : ''].join(' ')}
      aria-current={selected || undefined}
      onClick={() => onOpen(d.serial)}
      data-serial={d.serial}
    >
      <span className={styles.cardTop}>
        <span className={[styles.dot, styles[connection]].join(' ')} title={CONNECTION_TEXT[connection]}>
          <span className="visually-hidden">{CONNECTION_TEXT[connection]}</span>
        </span>
        <span className={styles.cardName}>{d.label || 'NoName'}</span>
        {showDual && d.batch2 ? (
          <span className={styles.dual} title="Dual device: two pumps in use">
            <DualDeviceIcon size={18} />
            <span className="visually-hidden">Dual device</span>
          </span>
        ) : null}
        {d.is_pause ? <span className={styles.pausedBadge}>PAUSED</span> : null}
      </span>
      {d.market_partners?.length ? (
        <span className={styles.chips}>
          {d.market_partners.map((p) => (
            <span key={p.id} className={styles.chip}>
              {p.company}
            </span>
          ))}
        </span>
      ) : null}
      <span className={styles.cardAddress} title={d.address}>
        {d.address || 'No address'}
      </span>
      <span className={styles.cardSerial}>S/N {d.serial}</span>
      {warnings.length ? (
        <span className={styles.cardWarnings} title={warnings.join(', ')}>
          {warnings.join(', ')}
        </span>
      ) : null}
    </button>
  );
}
