import { lazy, Suspense, type ReactNode } from 'react';
import { LoadBoundary } from '../../../shared/ui';
import { ClockPanel } from '../../../widgets/clock-panel';
import { loadMapPage } from '../preload';
import { FailureNote } from './failure-note';
import styles from './map-page.module.css';

// The page's parts share one chunk (one import), which the preload started.
const MapPart = lazy(() => loadMapPage().then((m) => ({ default: m.MapPart })));
const TopRightPart = lazy(() => loadMapPage().then((m) => ({ default: m.TopRightPart })));
const PanelsPart = lazy(() => loadMapPage().then((m) => ({ default: m.PanelsPart })));

/**
 * The map screen (`/`): its frame and live clock are in the first bundle, so a returning user's tab paints
 * them while the stored session is checked and the map page's chunk downloads; once signed in, the map,
 * the panels and dialogs (ui/map-page) fill the frame as they arrive. The frame stays the same element
 * throughout, so the clock is painted once, not again when the session answers or the chunk has run.
 */
export function MapScreen({ signedIn }: { signedIn: boolean }) {
  const loading = (
    <p className="visually-hidden" role="status">
      Loading map…
    </p>
  );
  // The same tree (boundary, then shell) before and after the session answers: React keeps the frame and
  // its clock as they are. A different root here (the shell alone while checking) remounted them when the
  // session answered: the clock was painted twice, and its second paint, after the map page's chunk, was
  // the page's Largest Contentful Paint (Lighthouse: 2.2-3.8 s instead of the first paint's 1.9 s).
  if (!signedIn)
    return (
      <LoadBoundary onRetry={reload} failure={(retry) => <MapFailure onRetry={retry} />}>
        <MapShell>{loading}</MapShell>
      </LoadBoundary>
    );
  return (
    <LoadBoundary onRetry={reload} failure={(retry) => <MapFailure onRetry={retry} />}>
      <MapShell
        map={
          <Suspense fallback={null}>
            <MapPart />
          </Suspense>
        }
        topRight={
          <Suspense fallback={null}>
            <TopRightPart />
          </Suspense>
        }
      >
        <Suspense fallback={loading}>
          <PanelsPart />
        </Suspense>
      </MapShell>
    </LoadBoundary>
  );
}

/**
 * Try again loads the page anew. Its code could not be downloaded: offline, or a deploy in between, after
 * which this page's chunk names are gone and only a new page finds the new ones. Nothing is lost: the
 * session is in its cookie and the screen holds nothing yet but the clock.
 */
const reload = () => window.location.reload();

/** The map page's code (or the map's own) could not be downloaded: said where and as the page says its devices could not be loaded. */
function MapFailure({ onRetry }: { onRetry: () => void }) {
  return (
    <MapShell>
      <div className={styles.topLeft}>
        <div role="alert" className={styles.statusLine}>
          <FailureNote onRetry={onRetry}>The map could not be loaded.</FailureNote>
        </div>
      </div>
    </MapShell>
  );
}

function MapShell({ map, topRight, children }: { map?: ReactNode; topRight?: ReactNode; children?: ReactNode }) {
  return (
    <main className={styles.screen}>
      <h1 className="visually-hidden">Device map</h1>
      {map}
      <div className={styles.topRight} data-map-cover="">
        <ClockPanel />
        {topRight}
      </div>
      {children}
    </main>
  );
}
