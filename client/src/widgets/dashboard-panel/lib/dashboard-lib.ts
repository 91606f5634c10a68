import { cutText, LABEL_CUT, PARTNER_SEPARATOR, searchKey, type DevicePageStatus, type RollupRow } from '@fleet/shared';
import { filterKey, type Device, type PageFilter } from '../../../entities/device';
import { rollupTally, type StatusTally } from '../../../entities/county';

/**
 * The main dashboard's rules as pure functions (spec sections 2 and 4): what a filter view asks the
 * server for, how the 'Name or Serial' search is sent, and the county, site and market-partner cards of
 * the DEVICE LIST tab from the server's roll-ups (GET /api/v1/deviceRollup). The views read them through the model; tests call them directly.
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

/**
 * The status each view asks the server for (GET /api/v1/devicePage's `status`, which applies section 4's
 * definitions: Online = is_online, Offline = not online, LowBattery = below 50 %, Synced = is_registration).
 * Total, ReportList and ServiceDay list every device.
 */
export const VIEW_STATUS: Record<FilterView, DevicePageStatus | undefined> = {
  Total: undefined,
  ReportList: undefined,
  ServiceDay: undefined,
  Online: 'online',
  Offline: 'offline',
  Warning: 'warning',
  Maintenance: 'maintenance',
  Pause: 'pause',
  LowBattery: 'low-battery',
  Synced: 'synced',
};

export const filterTitle = (view: FilterView) => `${view} Devices`;

/** Search text as compared (shared's rule, which the server's devicePage applies in SQL too). */
export { searchKey };

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
 * Several market partners chosen at once go to the server in one `partner`, separated by this (the
 * filter is multi-select in spec section 2; issue 46's query names one company). See docs/fleet-100k.md.
 */

/** The server query of a filter list: empty filters left out, so equal lists make equal queries. */
export function pageFilterOf(f: ListFilters): PageFilter {
  const status = VIEW_STATUS[f.view];
  return {
    ...(status ? { status } : {}),
    ...(f.search ? { q: f.search } : {}),
    ...(f.brand !== null ? { brand: f.brand } : {}),
    ...(f.county !== null ? { county: f.county } : {}),
    ...(f.partners.length ? { partner: [...f.partners].sort().join(PARTNER_SEPARATOR) } : {}),
  };
}

/** Whether only the search text differs from the list shown (read once typing settles, not at once). */
export function typedOnly(shown: PageFilter | null, next: PageFilter): boolean {
  if (!shown) return false;
  const { q: _a, ...a } = shown;
  const { q: _b, ...b } = next;
  return filterKey(a) === filterKey(b) && (shown.q ?? '') !== (next.q ?? '');
}

/** The companies seen so far with the rows just read, by name ignoring case, sorted by name. */
export function seenPartners(seen: readonly PartnerCompany[], rows: readonly Device[]): PartnerCompany[] {
  const known = new Set(seen.map((c) => c.key));
  const added: PartnerCompany[] = [];
  for (const d of rows)
    for (const p of d.market_partners ?? []) {
      const key = p.company.trim().toLowerCase();
      if (!key || known.has(key)) continue;
      known.add(key);
      added.push({ key, company: p.company.trim(), deviceCount: 0 });
    }
  return added.length ? [...seen, ...added].sort((a, b) => a.company.localeCompare(b.company)) : (seen as PartnerCompany[]);
}

/** The county name as cards show it (47 characters plus '...' beyond 50). */
export const countyCardName = (name: string) => cutText(name, ...LABEL_CUT.county);

export { type CountyRow, type StatusTally } from '../../../entities/county';

/** The batch numbers of a `by=batch` roll-up (the COUNTY tab's Batch filter), sorted as numbers within text. */
export function batchNumbersOf(rows: readonly RollupRow[]): string[] {
  return rows.map((row) => row.key).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

export type SiteRow = StatusTally & { id: number; address: string; name: string; serial: string };

/**
 * The device groups (sites) of one county from a `by=site` roll-up: a drill-down from its county card. A
 * card is named by its first device's address up to the first comma, else that device's label, else
 * 'NoName'; it opens that device. Sorted by name.
 */
export function siteRowsOf(rows: readonly RollupRow[]): SiteRow[] {
  return rows
    .map((row) => {
      const address = row.address ?? '';
      return {
        id: Number(row.key),
        address,
        name: address.split(',')[0]?.trim() || row.label || 'NoName',
        serial: row.serial ?? '',
        ...rollupTally(row),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export type PartnerCompany = { key: string; company: string; deviceCount: number };

/** Market-partner companies of a `by=partner` roll-up (one per company name ignoring case), sorted by name. */
export function partnerCompaniesOf(rows: readonly RollupRow[]): PartnerCompany[] {
  return rows
    .map((row) => ({ key: row.key, company: row.name, deviceCount: row.total }))
    .sort((a, b) => a.company.localeCompare(b.company));
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
