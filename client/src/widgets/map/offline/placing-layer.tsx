import { useUnit } from 'effector-react';
import { Marker, type MapMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { $placing, placingPinMoved } from '../model';
import { useOfflineMap } from './map-context';
import styles from './offline-map.module.css';

/**
 * The pin placed by hand (issue 42): while placing, a click on the map drops it there, and it can be
 * dragged (MapLibre's draggable marker); it carries the nearest town's name once the form has it. The
 * container says where it is (data-placing-pin) for the browser tests.
 */
export function PlacingLayer() {
  const map = useOfflineMap();
  const [placing, moved] = useUnit([$placing, placingPinMoved]);
  const marker = useRef<Marker | null>(null);
  const caption = useRef<HTMLSpanElement | null>(null);
  const latest = useRef(moved);
  latest.current = moved;
  const active = placing !== null;

  useEffect(() => {
    if (!active) return;
    const container = map.getContainer();
    const onClick = (event: MapMouseEvent) => latest.current({ lat: event.lngLat.lat, lng: event.lngLat.lng });
    map.on('click', onClick);
    container.dataset.placing = 'true';
    map.getCanvas().style.cursor = 'crosshair';
    return () => {
      map.off('click', onClick);
      delete container.dataset.placing;
      delete container.dataset.placingPin;
      map.getCanvas().style.cursor = '';
      marker.current?.remove();
      marker.current = null;
    };
  }, [map, active]);

  useEffect(() => {
    const location = placing?.location ?? null;
    if (!location) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    if (!marker.current) {
      const element = document.createElement('div');
      element.className = styles.placingPin ?? '';
      element.dataset.testid = 'placing-pin';
      const head = document.createElement('span');
      head.className = styles.placingHead ?? '';
      head.setAttribute('aria-hidden', 'true');
      caption.current = document.createElement('span');
      caption.current.className = styles.placingCaption ?? '';
      element.append(caption.current, head);
      marker.current = new Marker({ element, anchor: 'bottom', draggable: true })
        .setLngLat([location.lng, location.lat])
        .addTo(map);
      marker.current.on('dragend', () => {
        const at = marker.current?.getLngLat();
        if (at) latest.current({ lat: at.lat, lng: at.lng });
      });
    }
    marker.current.setLngLat([location.lng, location.lat]);
    if (caption.current) caption.current.textContent = placing?.label ?? 'Finding the nearest town…';
    map.getContainer().dataset.placingPin = `${location.lat.toFixed(6)},${location.lng.toFixed(6)}`;
  }, [map, placing]);

  return null;
}
