import { InfoPage } from '../../../shared/ui';

/**
 * /maintenance (spec section 2). Its calls carry the maintenance credential, which is server
 * configuration (MAINTENANCE_TOKEN) and never part of the client code.
 */
export function MaintenancePage() {
  return (
    <InfoPage title="Maintenance" lead="Maintenance access is configured on the server." backHref="/" backLabel="Back to the portal">
      <p>
        This page will list the devices due for maintenance and let maintenance staff work through them. Its calls use the
        maintenance credential that the portal server holds in its configuration; no credential is stored in this page.
      </p>
    </InfoPage>
  );
}
