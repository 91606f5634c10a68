import { useUnit } from 'effector-react';
import { MAP_DEFAULTS } from '@fleet/shared';
import { useEffect, useRef } from 'react';
import { $viewRequest, MAX_ZOOM, mapMoved } from '../model';
import { toGlZoom, toSpecZoom, useOfflineMap } from './map-context';
import { clearPadding, coveredBoxes } from '../lib/clear-view';

/** Applies view requests (zoom buttons, a selected device, a clicked cluster) and reports moves. */
export function ViewSync() {
  const map = useOfflineMap();
  const [request, moved] = useUnit([$viewRequest, mapMoved]);
  /** Where the current animation is heading (spec zoom), so steps add up while it runs. */
  const heading = useRef<number | null>(null);

  useEffect(() => {
    const report = () => {
      heading.current = null;
      const center = map.getCenter();
      const zoom = toSpecZoom(map.getZoom());
      map.getContainer().dataset.zoom = zoom.toFixed(2);
      map.getContainer().dataset.center = `${center.lat.toFixed(5)},${center.lng.toFixed(5)}`;
      moved({ zoom, center: { lat: center.lat, lng: center.lng } });
    };
    // data-idle: 'true' once MapLibre has drawn everything after a move (its 'idle'), for the browser tests
    // to wait on instead of sleeping a guessed time before a screenshot.
    const busy = () => {
      map.getContainer().dataset.idle = 'false';
    };
    const idle = () => {
      map.getContainer().dataset.idle = 'true';
    };
    map.on('moveend', report);
    map.on('movestart', busy);
    map.on('idle', idle);
    report();
    if (map.loaded() && !map.isMoving()) idle();
    return () => {
      map.off('moveend', report);
      map.off('movestart', busy);
      map.off('idle', idle);
    };
  }, [map, moved]);

  useEffect(() => {
    if (!request) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (request.bounds) {
      heading.current = null;
      // Fitted into the part of the map no panel covers (a county under the dashboard was not seen).
      const container = map.getContainer();
      const [sw, ne] = [map.project(request.bounds[0]), map.project(request.bounds[1])];
      const content = { width: Math.abs(ne.x - sw.x), height: Math.abs(sw.y - ne.y) };
      const padding = clearPadding(container.clientWidth, container.clientHeight, coveredBoxes(container), content);
      map.fitBounds(request.bounds, { padding, duration: reduced ? 0 : 350 });
      return;
    }
    const from = heading.current ?? toSpecZoom(map.getZoom());
    const zoom = Math.min(MAX_ZOOM, Math.max(MAP_DEFAULTS.minZoom, request.zoom ?? from + (request.zoomBy ?? 0)));
    map.easeTo({
      ...(request.center ? { center: [request.center.lng, request.center.lat] as [number, number] } : {}),
      zoom: toGlZoom(zoom),
      duration: reduced ? 0 : 350,
    });
    // Set after easeTo: starting it ends the previous animation, whose moveend clears `heading`.
    heading.current = zoom;
    // Only a new request moves the map.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, request?.seq]);

  return null;
}
