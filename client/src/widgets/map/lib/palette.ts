import type { PinStatus } from '../../../entities/device';

/** Map colours come from the design tokens (tokens.css), read once the stylesheet applies. */
export type MapPalette = Record<PinStatus, string> & {
  outline: string;
  text: string;
  land: string;
  water: string;
  countyFill: string;
  countyLine: string;
  selectedHalo: string;
};

const FALLBACK: MapPalette = {
  normal: '#1f9d55',
  registering: '#e0a500',
  offline: '#d14343',
  warning: '#e06c00',
  paused: '#6b7a99',
  outline: '#ffffff',
  text: '#13232b',
  land: '#e9efe6',
  water: '#cfe3ea',
  countyFill: 'rgba(31,111,139,0.05)',
  countyLine: '#7d9aa6',
  selectedHalo: 'rgba(31,111,139,0.35)',
};

export function readPalette(element: Element = document.documentElement): MapPalette {
  const style = getComputedStyle(element);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    normal: token('--color-pin-normal', FALLBACK.normal),
    registering: token('--color-pin-registering', FALLBACK.registering),
    offline: token('--color-pin-offline', FALLBACK.offline),
    warning: token('--color-pin-warning', FALLBACK.warning),
    paused: token('--color-pin-paused', FALLBACK.paused),
    outline: token('--color-pin-outline', FALLBACK.outline),
    text: token('--color-text', FALLBACK.text),
    land: token('--color-map-land', FALLBACK.land),
    water: token('--color-map-water', FALLBACK.water),
    countyFill: token('--color-map-county-fill', FALLBACK.countyFill),
    countyLine: token('--color-map-county-line', FALLBACK.countyLine),
    selectedHalo: token('--color-pin-selected-halo', FALLBACK.selectedHalo),
  };
}
