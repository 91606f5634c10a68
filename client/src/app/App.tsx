import { lazy, Suspense } from 'react';
import { useUnit } from 'effector-react';
import { $sessionStatus, sessionCheckRequested } from '../entities/session';
import { $resetToken } from '../features/reset-password';
import { LoginPage } from '../pages/login';
import { NotFoundPage } from '../pages/not-found';
import { MapScreen } from '../pages/map';
import { $pathname, ROUTES } from '../shared/routing';
import { LoadBoundary } from '../shared/ui';
import { SessionLoading, Unavailable } from './session-screens';

// The pages besides the login and the map are loaded when opened: their code (and the effector units of
// their models, built when a module is evaluated) is not part of the first bundle that every visit runs
// before its first paint (tests/perf/map-trace.ts: the first bundle's evaluation was the longest task).
const StatusPage = lazy(() => import('../pages/status').then((m) => ({ default: m.StatusPage })));
const ExclusiveManagementPage = lazy(() =>
  import('../pages/exclusive-management').then((m) => ({ default: m.ExclusiveManagementPage })),
);
const MaintenancePage = lazy(() => import('../pages/maintenance').then((m) => ({ default: m.MaintenancePage })));
const MaintenanceResultPage = lazy(() =>
  import('../pages/maintenance-result').then((m) => ({ default: m.MaintenanceResultPage })),
);

/**
 * Routes (spec section 2): /maintenance and /maintenance-result need no user session (maintenance
 * access is server configuration); every other page needs one, and shows the login page until then,
 * at the same address. The map page is `/`. A reset link (/?token=...) shows the reset view first.
 */
export function App() {
  return (
    <LoadBoundary
      onRetry={() => window.location.reload()}
      failure={(retry) => <Unavailable title="This page could not be loaded" onRetry={retry} />}
    >
      <Suspense fallback={<SessionLoading />}>
        <Routes />
      </Suspense>
    </LoadBoundary>
  );
}

function Routes() {
  const [pathname, status, resetToken, retry] = useUnit([$pathname, $sessionStatus, $resetToken, sessionCheckRequested]);

  if (pathname === ROUTES.maintenance) return <MaintenancePage />;
  if (pathname === ROUTES.maintenanceResult) return <MaintenanceResultPage />;

  // A stored token is being checked: the map is the likely next screen, so its frame and clock paint
  // now (the page's code downloads meanwhile), instead of a blank screen until the answer.
  // The same element as the signed-in map screen below, so its frame and clock stay as they are.
  if (status === 'checking' && pathname === ROUTES.home && resetToken === null) return <MapScreen signedIn={false} />;
  if (status === 'unknown' || status === 'checking') return <SessionLoading />;
  if (status === 'unavailable') return <Unavailable title="The portal cannot be reached" onRetry={retry} />;
  if (status === 'anonymous' || resetToken !== null) return <LoginPage />;

  switch (pathname) {
    case ROUTES.home:
      // The map screen's code (and the map libraries behind it) loads after sign-in: the login page stays small.
      return <MapScreen signedIn />;
    case ROUTES.status:
      return <StatusPage />;
    case ROUTES.exclusiveManagement:
      return <ExclusiveManagementPage />;
    default:
      return <NotFoundPage />;
  }
}
