import { useUnit } from 'effector-react';
import { Marker } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { $placeNames, placeViewSettled, type PlaceName } from '../model';
import { refreshWhenDrawnChanges, toSpecZoom, useOfflineMap } from './map-context';
import styles from './offline-map.module.css';
import { drawnPins } from './drawn-pins';

/** At most this many town names at once. */
const PLACE_CAP = 40;
type Box = { left: number; right: number; top: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Town and city names (GeoNames, through the server's gazetteer) as HTML overlays, the most populous
 * first, none covering another, a pin, a cluster or a device label: context for where the pins are,
 * never in their way. Hidden from assistive technology (the device list says where devices are).
 */
export function PlaceNamesLayer() {
  const map = useOfflineMap();
  const [places, settled] = useUnit([$placeNames, placeViewSettled]);
  const markers = useRef(new Map<string, Marker>());
  const latest = useRef({ places, settled });
  latest.current = { places, settled };
  const refreshNext = useRef<(() => void) | null>(null);

  useEffect(() => {
    const placed = markers.current;
    const refresh = () => {
      const bounds = map.getBounds();
      latest.current.settled({
        west: bounds.getWest(),
        south: bounds.getSouth(),
        east: bounds.getEast(),
        north: bounds.getNorth(),
        zoom: toSpecZoom(map.getZoom()),
      });
      // Room taken by the fleet: pins, clusters and the device labels already placed.
      const taken: Box[] = [];
      // A pin or cluster partly on screen keeps names clear too.
      for (const at of drawnPins(map, 40)) taken.push({ left: at.x - 22, right: at.x + 22, top: at.y - 34, bottom: at.y + 22 });
      const container = map.getContainer().getBoundingClientRect();
      for (const label of map.getContainer().querySelectorAll<HTMLElement>('[data-serial], [data-site]')) {
        const r = label.getBoundingClientRect();
        taken.push({
          left: r.left - container.left,
          right: r.right - container.left,
          top: r.top - container.top,
          bottom: r.bottom - container.top,
        });
      }
      const { width, height } = map.getCanvas().getBoundingClientRect();
      const wanted = new Map<string, PlaceName>();
      for (const place of latest.current.places) {
        if (wanted.size >= PLACE_CAP) break;
        const at = map.project([place.lng, place.lat]);
        if (at.x < 0 || at.y < 0 || at.x > width || at.y > height) continue;
        const w = place.name.length * 6.6 + 8;
        const box: Box = { left: at.x - w / 2, right: at.x + w / 2, top: at.y - 9, bottom: at.y + 9 };
        if (taken.some((other) => overlaps(box, other))) continue;
        taken.push(box);
        wanted.set(`${place.name}|${place.lat}|${place.lng}`, place);
      }
      for (const [key, marker] of placed) {
        if (!wanted.has(key)) {
          marker.remove();
          placed.delete(key);
        }
      }
      for (const [key, place] of wanted) {
        if (placed.has(key)) continue;
        const element = document.createElement('div');
        element.className = [styles.place, place.population >= 100_000 ? styles.city : ''].join(' ');
        element.textContent = place.name;
        element.dataset.place = place.name;
        element.setAttribute('aria-hidden', 'true');
        placed.set(key, new Marker({ element, anchor: 'center' }).setLngLat([place.lng, place.lat]).addTo(map));
      }
      map.getContainer().dataset.placeCount = String(placed.size);
    };
    const refreshes = refreshWhenDrawnChanges(map, refresh);
    refreshes.soon();
    refreshNext.current = refreshes.next;
    return () => {
      refreshNext.current = null;
      refreshes.stop();
      for (const marker of placed.values()) marker.remove();
      placed.clear();
    };
  }, [map]);

  // New names for the view: placed right away, in the next task (a repaint just to get an idle event would
  // cost a whole frame; the view they were asked for is unchanged, so refresh asks for nothing new).
  const namesPlaced = useRef(places);
  useEffect(() => {
    if (namesPlaced.current === places) return;
    namesPlaced.current = places;
    refreshNext.current?.();
  }, [places]);

  return null;
}
