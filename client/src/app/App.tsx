import { useUnit } from 'effector-react';
import { lazy, Suspense } from 'react';
import { $sessionStatus, sessionCheckRequested } from '../entities/session';
import { $resetToken } from '../features/reset-password';
import { ExclusiveManagementPage } from '../pages/exclusive-management';
import { LoginPage } from '../pages/login';
import { MaintenancePage } from '../pages/maintenance';
import { MaintenanceResultPage } from '../pages/maintenance-result';
import { NotFoundPage } from '../pages/not-found';
import { loadMapPage, MapShell } from '../pages/map';
import { StatusPage } from '../pages/status';
import { $pathname, ROUTES } from '../shared/routing';
import { SessionLoading, SessionUnavailable } from './session-screens';

// The map screen (and the map libraries behind it) loads after sign-in: the login page stays small.
const MapPage = lazy(loadMapPage);

/**
 * Routes (spec section 2): /maintenance and /maintenance-result need no user session (maintenance
 * access is server configuration); every other page needs one, and shows the login page until then,
 * at the same address. The map page is `/`. A reset link (/?token=...) shows the reset view first.
 */
export function App() {
  const [pathname, status, resetToken, retry] = useUnit([$pathname, $sessionStatus, $resetToken, sessionCheckRequested]);

  if (pathname === ROUTES.maintenance) return <MaintenancePage />;
  if (pathname === ROUTES.maintenanceResult) return <MaintenanceResultPage />;

  // A stored token is being checked: the map is the likely next screen, so its frame and clock paint
  // now (the page's code downloads meanwhile), instead of a blank screen until the answer.
  if (status === 'checking' && pathname === ROUTES.home && resetToken === null) return <MapLoading />;
  if (status === 'unknown' || status === 'checking') return <SessionLoading />;
  if (status === 'unavailable') return <SessionUnavailable onRetry={retry} />;
  if (status === 'anonymous' || resetToken !== null) return <LoginPage />;

  switch (pathname) {
    case ROUTES.home:
      return (
        <Suspense fallback={<MapLoading />}>
          <MapPage />
        </Suspense>
      );
    case ROUTES.status:
      return <StatusPage />;
    case ROUTES.exclusiveManagement:
      return <ExclusiveManagementPage />;
    default:
      return <NotFoundPage />;
  }
}

/** The map screen's shell while the session is checked or the page's code loads. */
function MapLoading() {
  return (
    <MapShell>
      <p className="visually-hidden" role="status">
        Loading map…
      </p>
    </MapShell>
  );
}
