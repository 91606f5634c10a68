import { useUnit } from 'effector-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { $pinsStatus, pinsRequested } from '../../../entities/device';
import { ActivePinPanel } from '../../../features/active-pin-filter';
import { DeviceFormDialog } from '../../../features/device-form';
import { Dialog, LoadBoundary, Spinner, StateMessage } from '../../../shared/ui';
import { DevicePanel, panelRouteRead } from '../../../widgets/device-panel';
import { FleetMap } from '../../../widgets/map';
import { ProfilePanel } from '../../../widgets/profile-panel';
import { SelectedDeviceCard } from '../../../widgets/selected-device';
import { $userManagementAsks } from '../model';
import { FailureNote } from './failure-note';
import { MapDashboard } from './map-dashboard';
import styles from './map-page.module.css';

/**
 * The map screen after sign-in, in the frame and clock of MapShell (first bundle, painted while the session
 * is checked): the full-window map with its panels floating over it (clock and Active Pin top right, zoom
 * and profile bottom right), and top left one column: the selected pin's card above the main dashboard,
 * which gives up height to it (so neither ever covers the other). Three parts of one chunk, each put in
 * its place in the shell (ui/map-shell MapScreen), so the shell and its clock stay on screen as they are.
 */
export function MapPart() {
  return <FleetMap />;
}

export function TopRightPart() {
  return <ActivePinPanel />;
}

const loadUserManagement = () => import('./user-management-part');
let UserManagementPart = lazy(loadUserManagement);
const noop = () => undefined;

/**
 * User Management from its chunk (ui/user-management-part): the dialog says Loading… while the code
 * arrives, and that it could not be loaded, with Try again, if it does not (closed, that message shows
 * again at the next click of the profile image: `asks` counts them).
 */
function LazyUserManagement({ asks }: { asks: number }) {
  const [, retried] = useState(0);
  const [failureClosedAt, setFailureClosedAt] = useState(0);
  return (
    <LoadBoundary
      onRetry={() => {
        UserManagementPart = lazy(loadUserManagement);
        retried((n) => n + 1);
      }}
      failure={(retry) => (
        <Dialog open={failureClosedAt !== asks} onClose={() => setFailureClosedAt(asks)} title="User Management">
          <StateMessage status="failed" onRetry={retry}>
            User Management could not be loaded.
          </StateMessage>
        </Dialog>
      )}
    >
      <Suspense
        fallback={
          <Dialog open onClose={noop} title="User Management">
            <StateMessage status="loading">Loading…</StateMessage>
          </Dialog>
        }
      >
        <UserManagementPart />
      </Suspense>
    </LoadBoundary>
  );
}

export function PanelsPart() {
  const [status, retry, readRoute, userManagementAsks] = useUnit([$pinsStatus, pinsRequested, panelRouteRead, $userManagementAsks]);
  // /?device=<serial> opens that device's panel.
  useEffect(() => readRoute(), [readRoute]);
  return (
    <>
      <div className={styles.bottomRight}>
        <ProfilePanel />
      </div>
      <div className={styles.topLeft}>
        <div role="status" aria-live="polite" className={styles.statusLine}>
          {status === 'loading' ? (
            <p className={styles.note}>
              <Spinner size={16} /> Loading devices…
            </p>
          ) : status === 'failed' ? (
            <FailureNote onRetry={() => retry()}>The devices could not be loaded.</FailureNote>
          ) : null}
        </div>
        <SelectedDeviceCard />
        <MapDashboard />
      </div>
      <DevicePanel />
      {userManagementAsks > 0 ? <LazyUserManagement asks={userManagementAsks} /> : null}
      <DeviceFormDialog />
    </>
  );
}
