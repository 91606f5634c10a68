import { useUnit } from 'effector-react';
import { useId } from 'react';
import type { PinType } from '../../../entities/device';
import { formatNumber } from '../../../shared/lib';
import { Panel, PanelTitle, SwitchButton } from '../../../shared/ui';
import { $enabledPinTypes, $pinCountsKnown, $pinTypeCounts, pinTypeToggled } from '../model';
import styles from './active-pin-panel.module.css';

const ROWS: { type: PinType; label: string; hint: string }[] = [
  { type: 'regular', label: 'Synced', hint: 'regular pins' },
  { type: 'pause', label: 'Pause', hint: 'paused devices' },
  { type: 'warning', label: 'Warning', hint: 'devices with warnings' },
];

/**
 * Active Pin: one switch per pin type; a switched-off type is dimmed here and hidden on the map. Its counts
 * are written as the dashboard's tiles write theirs (86,887, not 86887: both show on the map page at once).
 */
export function ActivePinPanel({ className }: { className?: string }) {
  const [enabled, counts, known, toggled] = useUnit([$enabledPinTypes, $pinTypeCounts, $pinCountsKnown, pinTypeToggled]);
  const titleId = useId();
  return (
    <Panel className={[styles.panel, className ?? ''].join(' ')} aria-labelledby={titleId} data-testid="active-pin-panel">
      <PanelTitle id={titleId} className={styles.title}>
        Active Pin
      </PanelTitle>
      <ul className={styles.list}>
        {ROWS.map(({ type, label, hint }) => (
          <li key={type}>
            <SwitchButton
              pressed={enabled[type]}
              onClick={() => toggled(type)}
              data-pin-type={type}
              title={`${enabled[type] ? 'Hide' : 'Show'} ${hint}`}
              mark={<span className={styles.swatch} data-pin-type={type} aria-hidden="true" />}
            >
              {label}
              {known ? <span className={styles.count}>{formatNumber(counts[type])}</span> : null}
            </SwitchButton>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
