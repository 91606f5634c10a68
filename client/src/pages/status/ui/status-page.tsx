import { InfoPage } from '../../../shared/ui';

/** /status: the status report, opened in a new tab from the map screen (filled by the dashboard issue). */
export function StatusPage() {
  return (
    <InfoPage title="Status report" lead="A printable report of every device you can see, by status.">
      <ul>
        <li>Online, offline, warning, paused and maintenance counts, overall and per county</li>
        <li>Each device with its site, brand, batches, battery and last report</li>
        <li>Warnings with their reasons</li>
      </ul>
    </InfoPage>
  );
}
