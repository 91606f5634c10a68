import { useUnit } from 'effector-react';
import { LngLatBounds, Marker } from 'maplibre-gl';
import { useEffect, useMemo } from 'react';
import { $routes, type RouteLine } from '../../../features/service-day';
import { useOfflineMap } from './map-context';
import { addLayerUnchecked, addSourceUnchecked } from './maplibre-internals';
import { useSourceData } from './use-source-data';

const SOURCE = 'service-routes';
export const SERVICE_ROUTE_LINE_LAYER = 'service-route-line';
export const SERVICE_ROUTE_STOP_LAYER = 'service-route-stop';

/** The routes as GeoJSON: one line a crew (straight segments, its colour), one point a stop (its number). */
export function routeFeatures(routes: readonly RouteLine[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: routes.flatMap((r): GeoJSON.Feature[] => [
      {
        type: 'Feature',
        properties: { crewId: r.crewId, color: r.color },
        geometry: { type: 'LineString', coordinates: r.path },
      },
      ...r.stops.map((s): GeoJSON.Feature => ({
        type: 'Feature',
        properties: { crewId: r.crewId, color: r.color, order: s.order, done: s.done },
        geometry: { type: 'Point', coordinates: [s.lng, s.lat] },
      })),
    ]),
  };
}

/**
 * The Service day's crew routes (issue 48): a line layer and a stop layer from one source, and each
 * stop's number as a small DOM marker (a few dozen at most, each in the page's own font). Renders nothing
 * itself; empty while the Service day view is closed. Zooms to the routes when a plan is shown.
 */
export function ServiceRouteLayer() {
  const map = useOfflineMap();
  const routes = useUnit($routes);
  const data = useMemo(() => routeFeatures(routes), [routes]);
  const initialData = useSourceData(map, SOURCE, data);

  useEffect(() => {
    addSourceUnchecked(map, SOURCE, { type: 'geojson', data: initialData() });
    addLayerUnchecked(map, {
      id: SERVICE_ROUTE_LINE_LAYER,
      type: 'line',
      source: SOURCE,
      filter: ['==', ['geometry-type'], 'LineString'],
      paint: { 'line-color': ['get', 'color'], 'line-width': 3, 'line-opacity': 0.85 },
    });
    addLayerUnchecked(map, {
      id: SERVICE_ROUTE_STOP_LAYER,
      type: 'circle',
      source: SOURCE,
      filter: ['==', ['geometry-type'], 'Point'],
      paint: {
        'circle-color': ['case', ['get', 'done'], '#ffffff', ['get', 'color']],
        'circle-radius': 11,
        'circle-stroke-color': ['get', 'color'],
        'circle-stroke-width': 2,
      },
    });
    return () => {
      if (!map.style) return;
      map.removeLayer(SERVICE_ROUTE_STOP_LAYER);
      map.removeLayer(SERVICE_ROUTE_LINE_LAYER);
      map.removeSource(SOURCE);
    };
  }, [map, initialData]);

  // The stops' numbers, over their circles (decorative: the stop list beside the map says the same).
  useEffect(() => {
    const markers = routes.flatMap((r) =>
      r.stops.map((s) => {
        const el = document.createElement('div');
        el.textContent = String(s.order);
        el.setAttribute('aria-hidden', 'true');
        el.dataset.crew = String(r.crewId);
        el.style.cssText = `font: 700 12px/1 system-ui, sans-serif; color: ${s.done ? r.color : '#fff'}; pointer-events: none;`;
        return new Marker({ element: el }).setLngLat([s.lng, s.lat]).addTo(map);
      }),
    );
    const points = routes.flatMap((r) => r.path);
    if (points.length) {
      const bounds = points.reduce((b, p) => b.extend(p), new LngLatBounds(points[0]!, points[0]!));
      map.fitBounds(bounds, { padding: 80, maxZoom: 13, duration: 0 });
    }
    return () => markers.forEach((m) => m.remove());
  }, [map, routes]);

  return null;
}
