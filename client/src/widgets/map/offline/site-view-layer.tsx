import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { siteViewSettled } from '../model';
import { useOfflineMap } from './map-context';

/**
 * Reports the view (its bounds, after each move and once at the start) for the sites' names of the labels
 * (model.ts: GET /api/v1/siteNames?bbox= for the view, debounced there). Draws nothing. A view wider than
 * the world (zoomed far out) is clamped to it; the labels only ask at zoom 10 and above anyway.
 */
export function SiteViewLayer() {
  const map = useOfflineMap();
  const settled = useUnit(siteViewSettled);

  useEffect(() => {
    const report = () => {
      const bounds = map.getBounds();
      settled({
        west: Math.max(-180, bounds.getWest()),
        south: Math.max(-90, bounds.getSouth()),
        east: Math.min(180, bounds.getEast()),
        north: Math.min(90, bounds.getNorth()),
      });
    };
    map.on('moveend', report);
    report();
    return () => {
      map.off('moveend', report);
    };
  }, [map, settled]);

  return null;
}
