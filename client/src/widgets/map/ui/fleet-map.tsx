import { useUnit } from 'effector-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { $clientConfig } from '../../../shared/config';
import { Spinner } from '../../../shared/ui';
import { PlacingBar } from './placing-bar';
import styles from './fleet-map.module.css';

// Each provider is its own chunk, loaded only when the map screen shows (after sign-in).
// (app/model starts the offline one while the session is checked: pages/map/preload.ts.)
const OfflineMap = lazy(() => import('../offline/offline-map'));
const GoogleFleetMap = lazy(() => import('../google/google-map'));

/**
 * The full-window map: Google Maps when the server configures a key at run time, else (and whenever
 * Google cannot load) the offline map, which needs no key and no network.
 */
export function FleetMap() {
  const config = useUnit($clientConfig);
  const [googleUnavailable, setGoogleUnavailable] = useState(false);
  const onUnavailable = useCallback(() => setGoogleUnavailable(true), []);
  const key = config?.googleMapsApiKey ?? null;

  const loading = (
    <div className={styles.loading} role="status">
      <Spinner size={18} /> Loading map…
    </div>
  );
  if (!config) return loading;
  return (
    <>
      <Suspense fallback={loading}>
        {key && !googleUnavailable ? <GoogleFleetMap apiKey={key} onUnavailable={onUnavailable} /> : <OfflineMap />}
      </Suspense>
      <PlacingBar />
    </>
  );
}
