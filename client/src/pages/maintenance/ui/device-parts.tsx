import type { MaintenanceDevice } from '@fleet/shared';
import { remainingText } from '../../../entities/maintenance';
import { pageText } from '../../../shared/ui';
import styles from './maintenance-page.module.css';

/**
 * A device's pumps: remaining fluid, when each runs out, its batch. The same columns on every card on a wide
 * screen; on a phone each pump is a block of labelled lines (four columns do not fit 390 px: their headers
 * overlapped).
 */
export function PumpTable({ device }: { device: MaintenanceDevice }) {
  return (
    <table className={[pageText.table, styles.pumps].join(' ')} data-testid="pump-table">
      <thead className={styles.pumpsHead}>
        <tr>
          <th scope="col" className={styles.colPump}>
            Pump
          </th>
          <th scope="col" className={styles.colRemaining}>
            Remaining
          </th>
          <th scope="col" className={styles.colRunsOut}>
            Runs out
          </th>
          <th scope="col">Batch</th>
        </tr>
      </thead>
      <tbody>
        {device.pumps.map((p) => (
          <tr key={p.pump}>
            <th scope="row">
              {p.pump === 1 ? 'Left' : 'Right'} · {p.pump_type}
            </th>
            <td data-label="Remaining" className={p.low_fluid ? styles.low : undefined}>
              {remainingText(p.volume_remain)}
            </td>
            <td
              data-label="Runs out"
              className={p.forecast.kind === 'forecast' && p.forecast.days <= 7 ? styles.low : undefined}
              data-testid="forecast"
            >
              {p.forecast_text}
            </td>
            <td data-label="Batch">{p.batch ? `${p.batch.batch_no}` : 'None'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a device needs, or why the plan visits it: in words, as small tags. Nothing when there is nothing. */
export function NeedsList({ items, label }: { items: readonly string[]; label: string }) {
  if (!items.length) return null;
  return (
    <ul className={styles.needs} aria-label={label}>
      {items.map((n) => (
        <li key={n} className={styles.need}>
          {n}
        </li>
      ))}
    </ul>
  );
}
