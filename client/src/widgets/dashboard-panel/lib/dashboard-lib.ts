import { cutText, LABEL_CUT, LOW_BATTERY_PERCENT } from '@fleet/shared';
import type { Device } from '../../../entities/device';
import { emptyTally, tally, type StatusTally } from '../../../entities/county';

/**
 * The main dashboard's rules as pure functions (spec sections 2 and 4): which devices a filter view
 * shows, how the 'Name or Serial' search matches, and the county, site and market-partner roll-ups of
 * the DEVICE LIST tab. The views read them through the model; tests call them directly.
 */

/** The filter list views of spec section 2, named as the spec names them (the title is '<filter> Devices'). */
export const FILTER_VIEWS = [
  'Total',
  'Online',
  'Offline',
  'Warning',
  'Maintenance',
  'Synced',
  'ReportList',
  'Pause',
  'LowBattery',
  'ServiceDay',
] as const;
export type FilterView = (typeof FILTER_VIEWS)[number];

type StatusFields = Pick<
  Device,
  'is_online' | 'is_warning' | 'is_maintenance' | 'is_pause' | 'is_registration' | 'battery_percent'
>;

/** Section 4's definitions: Online = is_online, Offline = not online, Low battery = below 50 %, Synced = is_registration. */
export const FILTER_RULES: Record<FilterView, (device: StatusFields) => boolean> = {
  Total: () => true,
  ReportList: () => true,
  ServiceDay: () => true,
  Online: (d) => d.is_online,
  Offline: (d) => !d.is_online,
  Warning: (d) => d.is_warning,
  Maintenance: (d) => d.is_maintenance,
  Pause: (d) => d.is_pause,
  LowBattery: (d) => d.battery_percent != null && d.battery_percent < LOW_BATTERY_PERCENT,
  Synced: (d) => d.is_registration,
};

export const filterTitle = (view: FilterView) => `${view} Devices`;

/** Search text as compared: no white space at all, lower case ('ab 12' finds serial 'AB12'). */
export const searchKey = (text: string) => text.replace(/\s+/g, '').toLowerCase();

export type ListFilters = {
  view: FilterView;
  /** searchKey of what was typed; '' matches everything. */
  search: string;
  brand: number | null;
  county: number | null;
  /** lower-cased company names; empty means every device. */
  partners: readonly string[];
};

/**
 * Each device's search text (label and serial as searchKey makes them), computed once per fleet update
 * rather than for 10,000 devices on every keystroke.
 */
export type SearchIndex = ReadonlyMap<string, { label: string; serial: string }>;
export function searchIndex(devices: readonly Device[]): SearchIndex {
  const index = new Map<string, { label: string; serial: string }>();
  for (const d of devices) index.set(d.serial, { label: searchKey(d.label ?? ''), serial: searchKey(d.serial) });
  return index;
}

/** The devices a filter list shows, in the order the fleet list gives them. */
export function filterDevices(devices: readonly Device[], f: ListFilters, index?: SearchIndex | null): Device[] {
  const rule = FILTER_RULES[f.view];
  const partners = f.partners.length ? new Set(f.partners) : null;
  const out: Device[] = [];
  for (const d of devices) {
    if (!rule(d)) continue;
    if (f.brand !== null && d.brand !== f.brand) continue;
    if (f.county !== null && d.location_id !== f.county) continue;
    if (partners && !(d.market_partners ?? []).some((p) => partners.has(p.company.toLowerCase()))) continue;
    if (f.search) {
      const keys = index?.get(d.serial) ?? { label: searchKey(d.label ?? ''), serial: searchKey(d.serial) };
      if (!keys.label.includes(f.search) && !keys.serial.includes(f.search)) continue;
    }
    out.push(d);
  }
  return out;
}

/** The county name as cards show it (47 characters plus '...' beyond 50). */
export const countyCardName = (name: string) => cutText(name, ...LABEL_CUT.county);

export { countyRows, type CountyRow, type StatusTally } from '../../../entities/county';

/** The batch numbers feeding any of the devices (the COUNTY tab's Batch filter), sorted. */
export function batchNumbers(devices: readonly Device[]): string[] {
  const set = new Set<string>();
  for (const d of devices) {
    if (d.batchNumber) set.add(d.batchNumber);
    if (d.batch2Number) set.add(d.batch2Number);
  }
  return [...set].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

export type SiteRow = StatusTally & { id: number; address: string; name: string; serials: string[] };

/** The device groups (sites) of one county: a drill-down from its county card. */
export function siteRows(devices: readonly Device[], county: number, batch: string | null = null): SiteRow[] {
  const rows = new Map<number, SiteRow & { numbers: Map<string, number> }>();
  for (const d of devices) {
    if (d.location_id !== county) continue;
    if (batch !== null && d.batchNumber !== batch && d.batch2Number !== batch) continue;
    let row = rows.get(d.location_group);
    if (!row) {
      const name = d.address.split(',')[0]?.trim() || d.label || 'NoName';
      rows.set(
        d.location_group,
        (row = { id: d.location_group, address: d.address, name, serials: [], numbers: new Map(), ...emptyTally() }),
      );
    }
    tally(row, d);
    row.serials.push(d.serial);
    row.numbers.set(d.serial, d.number ?? 0);
  }
  return [...rows.values()]
    .map(({ numbers, ...row }) => ({
      ...row,
      serials: row.serials.sort((a, b) => numbers.get(a)! - numbers.get(b)! || a.localeCompare(b)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export type PartnerCompany = { key: string; company: string; deviceCount: number; serials: string[] };

/** Market-partner companies of the devices, one per company name ignoring case, sorted by name. */
export function partnerCompanies(devices: readonly Device[]): PartnerCompany[] {
  const companies = new Map<string, PartnerCompany>();
  for (const d of devices) {
    const seen = new Set<string>();
    for (const p of d.market_partners ?? []) {
      const key = p.company.trim().toLowerCase();
      if (!key || seen.has(key)) continue;
      seen.add(key);
      let c = companies.get(key);
      if (!c) companies.set(key, (c = { key, company: p.company.trim(), deviceCount: 0, serials: [] }));
      c.deviceCount += 1;
      c.serials.push(d.serial);
    }
  }
  return [...companies.values()].sort((a, b) => a.company.localeCompare(b.company));
}

/** The brands of the devices with their device counts, by name (the Brand dropdown and the BRAND tab). */
export function brandOptions(devices: readonly Device[]): { id: number; name: string; deviceCount: number }[] {
  const brands = new Map<number, { id: number; name: string; deviceCount: number }>();
  for (const d of devices) {
    if (d.brand == null) continue;
    const b = brands.get(d.brand) ?? { id: d.brand, name: d.brand_name ?? `Brand ${d.brand}`, deviceCount: 0 };
    b.deviceCount += 1;
    brands.set(d.brand, b);
  }
  return [...brands.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Longitude/latitude bounds of a GeoJSON Polygon or MultiPolygon, to zoom the map to a county. */
export function geometryBounds(geometry: { type: string; coordinates: unknown }): [[number, number], [number, number]] | null {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  const visit = (c: unknown) => {
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') {
      west = Math.min(west, c[0]);
      east = Math.max(east, c[0]);
      south = Math.min(south, c[1]);
      north = Math.max(north, c[1]);
    } else if (Array.isArray(c)) for (const inner of c) visit(inner);
  };
  visit(geometry.coordinates);
  return Number.isFinite(west)
    ? [
        [west, south],
        [east, north],
      ]
    : null;
}
