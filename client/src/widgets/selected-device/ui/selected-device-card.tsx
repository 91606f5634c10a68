import { warningText } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { $selectedDevice, deviceSelectionCleared, PIN_STATUS_TEXT, pinStatusOf } from '../../../entities/device';
import { Button, CloseIcon, Panel } from '../../../shared/ui';
import { $panelShown, deviceManagerRequested } from '../model';
import styles from './selected-device-card.module.css';

/**
 * The selected pin's card (top left of the map): name, serial, status and address, and the way into
 * the device management panel. Hidden while the panel is open.
 */
export function SelectedDeviceCard() {
  const [device, panelShown, open, clear] = useUnit([
    $selectedDevice,
    $panelShown,
    deviceManagerRequested,
    deviceSelectionCleared,
  ]);
  if (!device || panelShown) return null;
  const status = pinStatusOf(device);
  return (
    <Panel className={styles.card} aria-label="Selected device" data-testid="selected-device">
      <div className={styles.head}>
        <div className={styles.titles}>
          <h2 className={styles.name}>{device.label || 'NoName'}</h2>
          <span className={styles.serial}>{device.serial}</span>
        </div>
        <button type="button" className={styles.close} onClick={() => clear()} aria-label="Clear the selection">
          <CloseIcon size={18} />
        </button>
      </div>
      <span className={[styles.status, styles[status]].join(' ')}>{PIN_STATUS_TEXT[status]}</span>
      {device.address ? <p className={styles.address}>{device.address}</p> : null}
      {device.warning_lists.length ? <p className={styles.warnings}>{device.warning_lists.map(warningText).join(', ')}</p> : null}
      <Button onClick={() => open(device.serial)}>Open Device Manager</Button>
    </Panel>
  );
}
