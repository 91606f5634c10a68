import { MAP_DEFAULTS } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useMemo, useRef } from 'react';
import { abbreviateCount, clusterDiameter, drawClusterRing, drawPin, PIN_SIZE } from '../lib/draw';
import { gridCluster, project, type GridItem, type GridPoint } from '../lib/grid-cluster';
import { readPalette } from '../lib/palette';
import { collectionOf, collectionOfBuild } from '../lib/pins';
import { $pins, $selectedSerial, clusterClicked, devicePinClicked, pinsBytesGone } from '../model';
import { CLUSTER_UNTIL_ZOOM } from '../offline/pins-layer';

const CELL_PX = 56;
const LABEL_CAP = 60;

/**
 * Pins and clusters on Google Maps, drawn on one canvas by an OverlayView (10,000 google.maps.Marker
 * objects would not stay smooth). Same drawings, statuses and thresholds as the offline map.
 */
export function GooglePinsLayer({ map }: { map: google.maps.Map }) {
  const [build, selected, bytesGone] = useUnit([$pins, $selectedSerial, pinsBytesGone]);
  // This provider draws each pin itself, from objects: the build's JSON parsed once a build. A build whose
  // bytes the offline map moved to its worker before (the map switched provider) is built again.
  const gone = build.json.byteLength === 0;
  const pins = useMemo(() => (gone ? collectionOf([]) : collectionOfBuild(build)), [build, gone]);
  useEffect(() => {
    if (gone) bytesGone();
  }, [gone, bytesGone]);
  const handlers = useUnit({ pinClicked: devicePinClicked, clusterClicked });
  const latest = useRef({ pins, selected, handlers });
  latest.current = { pins, selected, handlers };
  const overlay = useRef<{ redraw: () => void } | null>(null);

  useEffect(() => {
    const palette = readPalette();
    let items: GridItem[] = [];
    const canvas = document.createElement('canvas');
    canvas.style.position = 'absolute';
    canvas.style.pointerEvents = 'none';

    class PinsOverlay extends google.maps.OverlayView {
      override onAdd() {
        this.getPanes()?.overlayLayer.appendChild(canvas);
      }
      override onRemove() {
        canvas.remove();
      }
      override draw() {
        const projection = this.getProjection();
        const div = map.getDiv();
        const bounds = map.getBounds();
        const zoom = map.getZoom() ?? MAP_DEFAULTS.zoom;
        if (!projection || !bounds) return;
        const ratio = window.devicePixelRatio || 1;
        const width = div.clientWidth;
        const height = div.clientHeight;
        const corner = projection.fromContainerPixelToLatLng(new google.maps.Point(0, 0));
        const topLeft = corner ? projection.fromLatLngToDivPixel(corner) : null;
        if (!corner || !topLeft) return;
        canvas.style.left = `${topLeft.x}px`;
        canvas.style.top = `${topLeft.y}px`;
        canvas.width = width * ratio;
        canvas.height = height * ratio;
        canvas.style.width = `${width}px`;
        canvas.style.height = `${height}px`;
        const ctx = canvas.getContext('2d');
        if (!ctx) return;
        ctx.scale(ratio, ratio);

        const origin = project(corner.lat(), corner.lng(), zoom);
        const points: GridPoint[] = [];
        for (const feature of latest.current.pins.features) {
          const [lng, lat] = feature.geometry.coordinates;
          const at = project(lat, lng, zoom);
          const x = at.x - origin.x;
          const y = at.y - origin.y;
          if (x < -CELL_PX || y < -CELL_PX || x > width + CELL_PX || y > height + CELL_PX) continue;
          points.push({
            x: at.x,
            y: at.y,
            serial: feature.properties.serial,
            status: feature.properties.status,
            label: feature.properties.label,
          });
        }
        items =
          zoom >= CLUSTER_UNTIL_ZOOM
            ? points.map((point) => ({ kind: 'pin' as const, x: point.x, y: point.y, point }))
            : gridCluster(points, CELL_PX);
        let labels = 0;
        for (const item of items) {
          const x = item.x - origin.x;
          const y = item.y - origin.y;
          if (item.kind === 'cluster') {
            drawClusterRing(ctx, x, y, item.counts, abbreviateCount(item.total), clusterDiameter(item.total), palette);
          } else {
            const isSelected = item.point.serial === latest.current.selected;
            drawPin(ctx, x, y, item.point.status, palette, isSelected ? 1.45 : 1);
            if (zoom >= MAP_DEFAULTS.labelMinZoom && labels < LABEL_CAP) {
              labels += 1;
              ctx.font = '600 11px system-ui, sans-serif';
              ctx.textAlign = 'center';
              ctx.textBaseline = 'top';
              ctx.lineWidth = 3;
              ctx.strokeStyle = palette.outline;
              ctx.strokeText(item.point.label, x, y + 3);
              ctx.fillStyle = palette.text;
              ctx.fillText(item.point.label, x, y + 3);
            }
          }
        }
        div.dataset.pinCount = String(latest.current.pins.features.length);
      }
    }

    const instance = new PinsOverlay();
    instance.setMap(map);
    overlay.current = { redraw: () => instance.draw() };
    const idle = map.addListener('idle', () => instance.draw());
    const click = map.addListener('click', (event: google.maps.MapMouseEvent) => {
      if (!event.latLng) return;
      const zoom = map.getZoom() ?? MAP_DEFAULTS.zoom;
      const at = project(event.latLng.lat(), event.latLng.lng(), zoom);
      let best: { item: GridItem; distance: number } | null = null;
      for (const item of items) {
        // A pin's body sits above its point; a cluster is centred on it.
        const dy = item.kind === 'pin' ? at.y - (item.y - PIN_SIZE.height / 2) : at.y - item.y;
        const distance = Math.hypot(at.x - item.x, dy);
        const reach = item.kind === 'pin' ? PIN_SIZE.height / 2 : clusterDiameter(item.total) / 2;
        if (distance <= reach && (!best || distance < best.distance)) best = { item, distance };
      }
      if (!best) return;
      const { item } = best;
      if (item.kind === 'pin') latest.current.handlers.pinClicked(item.point.serial);
      else {
        const centre = event.latLng;
        latest.current.handlers.clusterClicked({ center: { lat: centre.lat(), lng: centre.lng() }, zoom: zoom + 2 });
      }
    });
    return () => {
      idle.remove();
      click.remove();
      instance.setMap(null);
      overlay.current = null;
    };
  }, [map]);

  useEffect(() => {
    overlay.current?.redraw();
  }, [pins, selected]);

  return null;
}
