import { MaintenancePage } from '../pages/maintenance';
import { LoadBoundary } from '../shared/ui';
import { Unavailable } from './session-screens';

/**
 * The technician's field app (/maintenance, issue 44) as its own page: maintenance.html's entry
 * (maintenance-main.tsx) renders this and nothing of the portal's start (no session check, no map, no
 * dashboard, no socket), so a phone without signal parses only the field app's code before its first paint
 * (tests/bench/field-app.bench.ts). It runs on the maintenance credential, never a user session.
 */
export function FieldApp() {
  return (
    <LoadBoundary
      onRetry={() => window.location.reload()}
      failure={(retry) => <Unavailable title="This page could not be loaded" onRetry={retry} />}
    >
      <MaintenancePage />
    </LoadBoundary>
  );
}
