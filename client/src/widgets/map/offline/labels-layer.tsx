import { useUnit } from 'effector-react';
import { Marker } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { $labelsVisible, $pins, $selectedSerial } from '../model';
import { useOfflineMap } from './map-context';
import styles from './offline-map.module.css';

/** At most this many labels at once: beyond it they would cover each other and cost frames. */
export const LABEL_CAP = 60;
const LABEL_MAX_WIDTH = 160;
/** Pins checked for overlap with labels: enough for any screen at label zooms. */
const PIN_BOX_CAP = 400;

type Box = { left: number; right: number; top: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Device labels at zoom 10 and above, as light HTML overlays under the pins currently drawn (not
 * clustered, in view): MapLibre text needs glyph fonts from a server, which the offline map has not.
 * Refreshed when the map settles; labels already placed move with the map on their own.
 */
export function LabelsLayer() {
  const map = useOfflineMap();
  const [visible, pins, selected] = useUnit([$labelsVisible, $pins, $selectedSerial]);
  const markers = useRef(new Map<string, Marker>());
  const state = useRef({ visible, selected });
  state.current = { visible, selected };

  useEffect(() => {
    const placed = markers.current;
    const refresh = () => {
      const wanted = new Map<string, { label: string; at: [number, number] }>();
      if (state.current.visible) {
        const features = map.queryRenderedFeatures({ layers: ['pins'] });
        features.sort((a, b) => Number(b.properties?.serial === state.current.selected) - Number(a.properties?.serial === state.current.selected));
        // Labels never cover a pin (the fan of a site's devices stays readable) nor another label.
        const pinBoxes = new Map<string, Box>();
        for (const feature of features.slice(0, PIN_BOX_CAP)) {
          if (feature.geometry.type !== 'Point') continue;
          const at = map.project(feature.geometry.coordinates as [number, number]);
          pinBoxes.set(String(feature.properties?.serial), { left: at.x - 12, right: at.x + 12, top: at.y - 32, bottom: at.y - 2 });
        }
        const taken: Box[] = [];
        for (const feature of features) {
          if (wanted.size >= LABEL_CAP) break;
          const serial = feature.properties?.serial as string | undefined;
          if (!serial || wanted.has(serial) || feature.geometry.type !== 'Point') continue;
          const label = String(feature.properties?.label ?? serial);
          const at = feature.geometry.coordinates as [number, number];
          // A label that would cover one already placed is left out (the pin stays clickable).
          const point = map.project(at);
          const width = Math.min(LABEL_MAX_WIDTH, label.length * 6.2 + 12);
          const box: Box = { left: point.x - width / 2, right: point.x + width / 2, top: point.y + 4, bottom: point.y + 22 };
          if (taken.some((other) => overlaps(box, other))) continue;
          if ([...pinBoxes].some(([other, pin]) => other !== serial && overlaps(box, pin))) continue;
          taken.push(box);
          wanted.set(serial, { label, at });
        }
      }
      for (const [serial, marker] of placed) {
        if (!wanted.has(serial)) {
          marker.remove();
          placed.delete(serial);
        }
      }
      for (const [serial, { label, at }] of wanted) {
        const existing = placed.get(serial);
        if (existing) {
          existing.setLngLat(at);
          existing.getElement().textContent = label;
          existing.getElement().dataset.selected = String(serial === state.current.selected);
          continue;
        }
        const element = document.createElement('div');
        element.className = styles.label ?? '';
        element.textContent = label;
        element.dataset.serial = serial;
        element.dataset.selected = String(serial === state.current.selected);
        element.setAttribute('aria-hidden', 'true');
        placed.set(serial, new Marker({ element, anchor: 'top', offset: [0, 4] }).setLngLat(at).addTo(map));
      }
      map.getContainer().dataset.labelCount = String(placed.size);
    };
    map.on('idle', refresh);
    refresh();
    return () => {
      map.off('idle', refresh);
      for (const marker of placed.values()) marker.remove();
      placed.clear();
    };
  }, [map]);

  // Hide at once when zooming out past the threshold or when the pins change; idle re-adds.
  useEffect(() => {
    if (visible) return;
    for (const marker of markers.current.values()) marker.remove();
    markers.current.clear();
    map.getContainer().dataset.labelCount = '0';
  }, [map, visible, pins]);

  return null;
}
