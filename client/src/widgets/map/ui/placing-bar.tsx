import { useUnit } from 'effector-react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Button, Panel } from '../../../shared/ui';
import { $placing, placingCentreChosen, placingFinished } from '../model';
import styles from './fleet-map.module.css';

/**
 * What to do while a device's pin is placed by hand (issue 42), over the top of the map: click the map or
 * drag the pin (the offline map), or 'Pin at map centre' (the keyboard's way, and any map provider's);
 * 'Use this place' goes back to the form with it, Cancel (or Escape) with the place it had.
 */
export function PlacingBar() {
  const [placing, centre, finish] = useUnit([$placing, placingCentreChosen, placingFinished]);
  const bar = useRef<HTMLDivElement>(null);
  const open = placing !== null;
  useEffect(() => {
    if (open) bar.current?.querySelector<HTMLElement>('button')?.focus();
  }, [open]);
  if (!placing) return null;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') finish('cancelled');
  };
  return (
    <div className={styles.placing} ref={bar} onKeyDown={onKeyDown}>
      <Panel className={styles.placingPanel} role="region" aria-label="Place the device" data-testid="placing-bar">
        <p className={styles.placingText}>Click the map where the device stands, or drag its pin.</p>
        <p className={styles.placingName} role="status">
          {placing.location ? (placing.label ? `Pin near ${placing.label}` : 'Finding the nearest town…') : 'No pin yet.'}
        </p>
        <div className={styles.placingActions}>
          <Button variant="secondary" onClick={() => centre()}>
            Pin at map centre
          </Button>
          <Button variant="secondary" onClick={() => finish('cancelled')}>
            Cancel
          </Button>
          <Button onClick={() => finish('done')} disabled={!placing.location}>
            Use this place
          </Button>
        </div>
      </Panel>
    </div>
  );
}
