import { lazy, Suspense, type ReactNode } from 'react';
import { ClockPanel } from '../../../widgets/clock-panel';
import { loadMapPage } from '../preload';
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
  if (!signedIn) return <MapShell>{loading}</MapShell>;
  return (
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
  );
}

function MapShell({ map, topRight, children }: { map?: ReactNode; topRight?: ReactNode; children?: ReactNode }) {
  return (
    <main className={styles.screen}>
      <h1 className="visually-hidden">Device map</h1>
      {map}
      <div className={styles.topRight}>
        <ClockPanel />
        {topRight}
      </div>
      {children}
    </main>
  );
}
