import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { $pinsStatus, pinsRequested } from '../../../entities/device';
import { $canOpenUserManagement } from '../../../entities/session';
import { ActivePinPanel } from '../../../features/active-pin-filter';
import { AlertsBell } from '../../../features/alerts-bell';
import { $deviceFormAsk, DEVICE_FORM_TITLE, loadDeviceFormPart } from '../../../features/device-form';
import { Spinner } from '../../../shared/ui';
import { DevicePanel, panelRouteRead } from '../../../widgets/device-panel';
import { IncidentsDialog } from '../../../widgets/incidents';
import { FleetMap } from '../../../widgets/map';
import { ProfilePanel } from '../../../widgets/profile-panel';
import { SelectedDeviceCard } from '../../../widgets/selected-device';
import { $userManagementAsks } from '../model';
import { FailureNote } from './failure-note';
import { LazyDialogPart } from './lazy-dialog-part';
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

/** Under the clock: the bell (issue 43: every signed-in role hears of its incidents there), then Active Pin. */
export function TopRightPart() {
  return (
    <>
      <AlertsBell />
      <ActivePinPanel />
    </>
  );
}

const loadUserManagement = () => import('./user-management-part');

export function PanelsPart() {
  const [status, retry, readRoute, userManagementAsks, deviceFormAsk, manages] = useUnit([
    $pinsStatus,
    pinsRequested,
    panelRouteRead,
    $userManagementAsks,
    $deviceFormAsk,
    $canOpenUserManagement,
  ]);
  // A client's profile image opens its own Account Settings (the same part, without the management menu).
  const usersTitle = manages ? 'User Management' : 'Account Settings';
  // /?device=<serial> opens that device's panel.
  useEffect(() => readRoute(), [readRoute]);
  return (
    <>
      {/* data-map-cover: panels over the map, which a county the map fits to keeps clear of (widgets/map). */}
      <div className={styles.bottomRight} data-map-cover="">
        <ProfilePanel />
      </div>
      <div className={styles.topLeft} data-map-cover="">
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
      <IncidentsDialog />
      {/* Each with its models, loaded when first asked for (issue 16). */}
      {userManagementAsks > 0 ? (
        <LazyDialogPart
          load={loadUserManagement}
          title={usersTitle}
          failure={`${usersTitle} could not be loaded.`}
          asks={userManagementAsks}
        />
      ) : null}
      {deviceFormAsk.count > 0 ? (
        <LazyDialogPart
          load={loadDeviceFormPart}
          title={deviceFormAsk.serial === null ? DEVICE_FORM_TITLE.add : DEVICE_FORM_TITLE.edit}
          failure="The device form could not be loaded."
          asks={deviceFormAsk.count}
        />
      ) : null}
    </>
  );
}
