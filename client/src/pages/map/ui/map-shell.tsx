import type { ReactNode } from 'react';
import { ClockPanel } from '../../../widgets/clock-panel';
import styles from './map-page.module.css';

/**
 * The map screen's frame and its clock: small enough for the first bundle, so a returning user's tab
 * paints it while the stored session is checked and the map's code downloads (app/App.tsx), and the
 * map page (ui/map-page, its own chunk) fills it in. `map`, `topRight` and `children` are the page's
 * parts; without them the shell is the screen's land colour and the live clock.
 */
export function MapShell({ map, topRight, children }: { map?: ReactNode; topRight?: ReactNode; children?: ReactNode }) {
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
