import { createEffect } from 'effector';

/**
 * The map page's chunks, started early. `import()` of the same module returns the same promise, so the
 * React.lazy of the map screen (ui/map-shell) and of the map widget pick up what this started. The offline provider (MapLibre, about
 * 250 kB gzipped) is the default and the fallback whenever Google cannot load, so it is fetched too.
 * Imported by app/model: this file must stay tiny and import nothing of the map itself.
 */
export const loadMapPage = () => import('./ui/map-page');
// The same module fleet-map's React.lazy imports, so both share one chunk; widgets/map's index would pull
// the whole map widget into the sign-in bundle.
// eslint-disable-next-line boundaries/dependencies -- a chunk to fetch early, not a dependency on the widget's internals
export const loadOfflineMap = () => import('../../widgets/map/offline/offline-map');

/** A frame has been painted with what is on screen now (the second animation frame from here). */
const painted = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));

export const preloadMapFx = createEffect(async () => {
  // Once the screen in front (the map's shell with its clock, or the login page) has painted: still in
  // parallel with the session check or the login, but the first paint does not wait for these chunks
  // to download and run (MapLibre's alone is one long task).
  await painted();
  // A failed download is retried by React.lazy when the page renders; nothing to report here.
  await Promise.all([loadMapPage(), loadOfflineMap()]).catch(() => undefined);
});
