import { InfoPage } from '../../../shared/ui';

/** /maintenance-result, opened from the dashboard's Maintenance tile. */
export function MaintenanceResultPage() {
  return (
    <InfoPage title="Maintenance result" lead="The outcome of the latest maintenance round, opened from the Maintenance tile." backHref="/">
      <ul>
        <li>Devices in maintenance mode and when they entered it</li>
        <li>Devices serviced, with their refill and battery state afterwards</li>
        <li>Devices still waiting for a visit</li>
      </ul>
    </InfoPage>
  );
}
