import { useUnit } from 'effector-react';
import { BatteryIcon, Card, CardHead, CardTitle, Chart } from '../../../shared/ui';
import { batteryChartOptions, batterySeries, batterySpan } from '../lib/chart-options';
import { batteryPlaceholder, batteryTitle } from '../lib/panel-lib';
import type { PanelDevice } from '../model';
import { battery } from '../telemetry.model';
import sectionStyles from './panel-section.module.css';
import styles from './battery-section.module.css';

/** Battery Management (spec section 2): state of charge over the past year, voltage and SOC now. */
export function BatterySection({ device }: { device: PanelDevice }) {
  const [points, status] = useUnit([battery.$data, battery.$status]);
  const low = device.warning_lists.includes('BATTERY');
  const title = batteryTitle(device.warning_lists);
  const series = batterySeries(points ?? [], device.timezone_id);
  return (
    <Card aria-labelledby="battery-title">
      <CardHead>
        <CardTitle id="battery-title">{title}</CardTitle>
      </CardHead>
      <div className={styles.batteryNow}>
        <span
          className={[styles.batteryImage, low ? styles.batteryLow : ''].join(' ')}
          role="img"
          aria-label={low ? 'Low battery' : 'Battery'}
        >
          <BatteryIcon size={56} />
        </span>
        <div>
          <span className={sectionStyles.statLabel}>Battery Voltage (V)</span>
          <strong className={sectionStyles.statValue} data-testid="battery-volt">
            {device.battery_volt ?? '–'}
          </strong>
        </div>
        <div>
          <span className={sectionStyles.statLabel}>Battery SOC (%)</span>
          <strong className={sectionStyles.statValue} data-testid="battery-percent">
            {device.battery_percent ?? '–'}
          </strong>
        </div>
      </div>
      <Chart
        label="Battery state of charge over the past year"
        height={260}
        type="area"
        placeholder={batteryPlaceholder(status, points?.length ?? 0)}
        series={series}
        options={batteryChartOptions(low, batterySpan(series))}
      />
    </Card>
  );
}
