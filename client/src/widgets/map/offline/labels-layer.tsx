import { useUnit } from 'effector-react';
import { Marker } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { devicePinClicked } from '../../../entities/device';
import { STACK_LINE_PX, stackLabels, type LabelStack } from '../lib/label-stack';
import { $labelsVisible, $pins, $selectedSerial, $siteNames } from '../model';
import { refreshWhenDrawnChanges, useOfflineMap } from './map-context';
import styles from './offline-map.module.css';
import { byLabelPriority, drawnPins } from './drawn-pins';

/** At most this many labels at once: beyond it they would cover each other and cost frames. */
export const LABEL_CAP = 60;
const LABEL_MAX_WIDTH = 160;
/** Pins checked for overlap with labels: enough for any screen at label zooms. */
const PIN_BOX_CAP = 400;

type Box = { left: number; right: number; top: number; bottom: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Labels at zoom 10 and above (spec section 2), as light HTML overlays: MapLibre text needs glyph fonts
 * from a server, which the offline map has not. A cluster holding one site's devices carries the site's
 * name; a single pin its device's name. Refreshed when the map settles; labels already placed move with
 * the map on their own.
 */
export function LabelsLayer() {
  const map = useOfflineMap();
  const [visible, pins, selected, siteNames, pinClicked] = useUnit([
    $labelsVisible,
    $pins,
    $selectedSerial,
    $siteNames,
    devicePinClicked,
  ]);
  const markers = useRef(new Map<string, Marker>());
  const choose = useRef(pinClicked);
  choose.current = pinClicked;
  const state = useRef({ visible, selected, siteNames });
  state.current = { visible, selected, siteNames };
  const refreshNext = useRef<(() => void) | null>(null);

  useEffect(() => {
    const placed = markers.current;
    const refresh = () => {
      const wanted = new Map<string, { label: string; at: [number, number]; offset?: number; stack?: LabelStack }>();
      if (state.current.visible) {
        const selected = state.current.selected;
        // Pins whose icon may reach into the view (it stands up to 34 px above its anchor).
        const drawn = drawnPins(map, 34);
        const pins = drawn.filter((d) => !d.cluster && typeof d.properties.serial === 'string');
        // Labels go to the selected device first, then to the worse statuses (drawn above the better ones).
        pins.sort(byLabelPriority(selected));
        // Labels never cover a pin (the fan of a site's devices stays readable) nor another label.
        const pinBoxes = new Map<string, Box>();
        for (const pin of pins.slice(0, PIN_BOX_CAP))
          pinBoxes.set(String(pin.properties.serial), {
            left: pin.x - 12,
            right: pin.x + 12,
            top: pin.y - 32,
            bottom: pin.y - 2,
          });
        const taken: Box[] = [];
        const canvas = map.getCanvas();
        // A site whose devices are single pins fanned round it: their labels stacked beside the fan, each
        // joined to its pin (under each pin they covered the neighbours and each other: 1 of 7 showed).
        const bySite = new Map<number, typeof pins>();
        for (const pin of pins) {
          const g = Number(pin.properties.g);
          if (g >= 0) bySite.set(g, [...(bySite.get(g) ?? []), pin]);
        }
        const stacked = new Set<string>();
        for (const [g, sitePins] of bySite) {
          if (
            sitePins.length < 2 ||
            !sitePins.some((p) => p.x >= 0 && p.x <= canvas.clientWidth && p.y >= 0 && p.y <= canvas.clientHeight)
          )
            continue;
          const stack = stackLabels(
            sitePins.map((p) => ({
              serial: String(p.properties.serial),
              label: String(p.properties.label ?? p.properties.serial),
              x: p.x,
              y: p.y,
            })),
            { width: canvas.clientWidth, height: canvas.clientHeight },
            LABEL_MAX_WIDTH,
          );
          taken.push({ left: stack.left, right: stack.left + stack.width, top: stack.top, bottom: stack.top + stack.height });
          for (const line of stack.lines) stacked.add(line.serial);
          wanted.set(`stack:${g}`, { label: '', at: map.unproject([stack.cx, stack.cy]).toArray() as [number, number], stack });
        }
        // Site names on one-site clusters first: they say where a group of pins is.
        for (const cluster of drawn) {
          if (!cluster.cluster) continue;
          const g = Number(cluster.properties.gmin);
          const name = state.current.siteNames[g];
          if (!name || g !== Number(cluster.properties.gmax)) continue;
          const key = `site:${g}`;
          if (wanted.has(key)) continue;
          const width = Math.min(LABEL_MAX_WIDTH, name.length * 6.2 + 12);
          // Under the ring (clusters are drawn centred, up to about 40 px across).
          const box: Box = {
            left: cluster.x - width / 2,
            right: cluster.x + width / 2,
            top: cluster.y + 22,
            bottom: cluster.y + 40,
          };
          if (taken.some((other) => overlaps(box, other))) continue;
          taken.push(box);
          wanted.set(key, { label: name, at: cluster.at, offset: 22 });
        }
        for (const pin of pins) {
          if (wanted.size >= LABEL_CAP) break;
          const serial = String(pin.properties.serial);
          if (stacked.has(serial)) continue;
          // Only pins standing on the view get a label (the others keep their boxes clear above).
          if (wanted.has(serial) || pin.x < 0 || pin.x > canvas.clientWidth || pin.y < 0 || pin.y > canvas.clientHeight) continue;
          const label = String(pin.properties.label ?? serial);
          // A label that would cover one already placed is left out (the pin stays clickable).
          const width = Math.min(LABEL_MAX_WIDTH, label.length * 6.2 + 12);
          const box: Box = { left: pin.x - width / 2, right: pin.x + width / 2, top: pin.y + 4, bottom: pin.y + 22 };
          if (taken.some((other) => overlaps(box, other))) continue;
          if ([...pinBoxes].some(([other, pinBox]) => other !== serial && overlaps(box, pinBox))) continue;
          taken.push(box);
          wanted.set(serial, { label, at: pin.at });
        }
      }
      for (const [serial, marker] of placed) {
        if (!wanted.has(serial)) {
          marker.remove();
          placed.delete(serial);
        }
      }
      for (const [serial, { label, at, offset = 4, stack }] of wanted) {
        if (stack) {
          // Drawn anew each time: its lines and leaders depend on where the pins are now.
          placed.get(serial)?.remove();
          placed.set(
            serial,
            new Marker({ element: stackElement(stack, state.current.selected, (s) => choose.current(s)), anchor: 'center' })
              .setLngLat(at)
              .addTo(map),
          );
          continue;
        }
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
        if (serial.startsWith('site:')) element.dataset.site = serial.slice(5);
        else element.dataset.serial = serial;
        element.dataset.selected = String(serial === state.current.selected);
        element.setAttribute('aria-hidden', 'true');
        placed.set(serial, new Marker({ element, anchor: 'top', offset: [0, offset] }).setLngLat(at).addTo(map));
      }
      const lineCount = [...placed.keys()].reduce(
        (n, key) =>
          n + (key.startsWith('stack:') ? (wanted.get(key)?.stack?.lines.length ?? 0) : key.startsWith('site:') ? 0 : 1),
        0,
      );
      map.getContainer().dataset.labelCount = String(lineCount + [...placed.keys()].filter((k) => k.startsWith('site:')).length);
      map.getContainer().dataset.siteLabelCount = String([...placed.keys()].filter((k) => k.startsWith('site:')).length);
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

  // Site names that arrive after the map settled: placed right away, in the next task, from what is drawn
  // (a repaint just to get an idle event would cost a whole frame; a map still moving refreshes at its next
  // idle anyway).
  const namesPlaced = useRef(siteNames);
  useEffect(() => {
    if (namesPlaced.current === siteNames) return;
    namesPlaced.current = siteNames;
    refreshNext.current?.();
  }, [siteNames]);

  // Hide at once when zooming out past the threshold or when the pins change; idle re-adds.
  useEffect(() => {
    if (visible) return;
    for (const marker of markers.current.values()) marker.remove();
    markers.current.clear();
    map.getContainer().dataset.labelCount = '0';
  }, [map, visible, pins]);

  return null;
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A fanned site's labels: a zero-size element at the fan's centre (the marker's anchor), its lines and
 * leaders placed around it. A line is a device's label; a click on it chooses that device, as its pin does
 * (the lines are larger targets than the pins). Hidden from assistive technology like every map label: the
 * dashboard's lists name the same devices.
 */
function stackElement(stack: LabelStack, selected: string | null, choose: (serial: string) => void): HTMLElement {
  const root = document.createElement('div');
  root.className = styles.stack ?? '';
  root.setAttribute('aria-hidden', 'true');
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', styles.leaders ?? '');
  root.append(svg);
  const edge = stack.side === 'right' ? stack.left : stack.left + stack.width;
  for (const line of stack.lines) {
    const leader = document.createElementNS(SVG, 'polyline');
    const pinX = line.x - stack.cx;
    const pinY = line.y - 14 - stack.cy;
    const lineY = line.top + STACK_LINE_PX / 2 - stack.cy;
    const knee = edge - stack.cx + (stack.side === 'right' ? -8 : 8);
    leader.setAttribute('points', `${pinX},${pinY} ${knee},${lineY} ${edge - stack.cx},${lineY}`);
    svg.append(leader);
    const element = document.createElement('div');
    element.className = [styles.label, styles.stackLine].join(' ');
    element.textContent = line.text;
    element.title = line.label;
    element.dataset.serial = line.serial;
    element.dataset.stacked = 'true';
    element.dataset.selected = String(line.serial === selected);
    element.style.left = `${stack.left - stack.cx}px`;
    element.style.top = `${line.top - stack.cy}px`;
    element.style.width = `${stack.width}px`;
    element.style.maxWidth = `${stack.width}px`;
    element.addEventListener('click', (event) => {
      // While a pin is placed by hand, a click is for the pin (placing-layer).
      if (root.closest('[data-placing="true"]')) return;
      event.stopPropagation();
      choose(line.serial);
    });
    root.append(element);
  }
  return root;
}
