import type { DevicePageStatus } from '../schemas/device.schema.ts';
import type { DeviceFilterInput, SelectionStepInput } from '../schemas/device-selection.schema.ts';
import { searchKey } from './search-key.ts';
import { isLowBattery } from './warnings.ts';

/**
 * Picks made in a browser as a selection the server resolves (issue 46; schemas/device-selection.schema.ts):
 * the steps so far (the list a dialog opened with, each Select All / Clear All of a filter) and the rows
 * toggled since the last step. Select All of 100,000 devices is one step `{ op: 'select', filter }`, never
 * 100,000 serials in the page. The browser evaluates a step only on the rows it shows (to tick them), with
 * the same rules as the server (matchesDeviceFilter); counts and serials come from the server.
 */
export type Picks = { steps: SelectionStepInput[]; toggled: Readonly<Record<string, boolean>> };

/** The fields of a shown row a filter reads (a device list answer has them all). */
export type FilterableDevice = {
  serial: string;
  label?: string | null;
  brand?: number | null;
  location_id?: number | null;
  /** The site (devicePage's `site`). */
  location_group?: number | null;
  address?: string | null;
  market_partners?: readonly { company: string }[] | null;
  is_online?: boolean;
  is_warning?: boolean;
  is_maintenance?: boolean;
  is_pause?: boolean;
  is_registration?: boolean;
  battery_percent?: number | null;
};

const STATUS_RULES: Record<DevicePageStatus, (d: FilterableDevice) => boolean> = {
  online: (d) => Boolean(d.is_online),
  offline: (d) => !d.is_online,
  warning: (d) => Boolean(d.is_warning),
  maintenance: (d) => Boolean(d.is_maintenance),
  pause: (d) => Boolean(d.is_pause),
  'low-battery': (d) => isLowBattery(d.battery_percent),
  synced: (d) => Boolean(d.is_registration),
};

/** Whether a device matches a filter, by the server's rules (devicePage's filters and the transfer dialog's). */
export function matchesDeviceFilter(filter: DeviceFilterInput, d: FilterableDevice): boolean {
  const nameKey = `${searchKey(d.label ?? '')} ${searchKey(d.serial)}`;
  const key = filter.q === undefined ? '' : searchKey(filter.q);
  if (key && !nameKey.includes(key)) return false;
  const anyKey = filter.search === undefined ? '' : searchKey(filter.search);
  if (anyKey && !`${nameKey} ${searchKey(d.address ?? '')}`.includes(anyKey)) return false;
  if (filter.site != null && d.location_group !== Number(filter.site)) return false;
  if (filter.brand != null && d.brand !== Number(filter.brand)) return false;
  if (filter.notBrand != null && d.brand === Number(filter.notBrand)) return false;
  if (filter.noBrand && d.brand != null) return false;
  if (filter.county != null && d.location_id !== Number(filter.county)) return false;
  if (filter.address !== undefined && d.address !== filter.address) return false;
  if (filter.status !== undefined && !STATUS_RULES[filter.status](d)) return false;
  if (filter.partner) {
    const names = new Set(filter.partner.split('|').map((n) => n.trim().toLowerCase()));
    if (!(d.market_partners ?? []).some((p) => names.has(p.company.toLowerCase()))) return false;
  }
  return true;
}

/** The picks a list of serials starts with. */
export const picksOf = (serials: readonly string[]): Picks => ({
  steps: serials.length ? [{ op: 'add', serials: [...serials] }] : [],
  toggled: {},
});

/** Whether a row is picked: the steps in order, then its own toggle. */
export function isPicked(picks: Picks, row: FilterableDevice): boolean {
  const toggled = picks.toggled[row.serial];
  if (toggled !== undefined) return toggled;
  let picked = false;
  for (const step of picks.steps) {
    const hit =
      step.op === 'add' || step.op === 'remove' ? step.serials.includes(row.serial) : matchesDeviceFilter(step.filter, row);
    if (hit) picked = step.op === 'add' || step.op === 'select';
  }
  return picked;
}

export function togglePick(picks: Picks, row: FilterableDevice): Picks {
  return { steps: picks.steps, toggled: { ...picks.toggled, [row.serial]: !isPicked(picks, row) } };
}

/** The steps with the toggles written as steps of their own. */
function flushed(picks: Picks): SelectionStepInput[] {
  const serials = Object.keys(picks.toggled);
  const add = serials.filter((s) => picks.toggled[s]);
  const remove = serials.filter((s) => !picks.toggled[s]);
  return [
    ...picks.steps,
    ...(add.length ? [{ op: 'add' as const, serials: add }] : []),
    ...(remove.length ? [{ op: 'remove' as const, serials: remove }] : []),
  ];
}

const isEmptyFilter = (filter: DeviceFilterInput) => Object.values(filter).every((v) => v === undefined || v === '');

/** Select All: every device the filter matches joins (an empty filter: every device, whatever came before). */
export function selectAllPicks(picks: Picks, filter: DeviceFilterInput): Picks {
  if (isEmptyFilter(filter)) return { steps: [{ op: 'select', filter: {} }], toggled: {} };
  return { steps: [...flushed(picks), { op: 'select', filter }], toggled: {} };
}

/** Clear All: every device the filter matches leaves (an empty filter: none is left). */
export function clearAllPicks(picks: Picks, filter: DeviceFilterInput): Picks {
  if (isEmptyFilter(filter)) return picksOf([]);
  return { steps: [...flushed(picks), { op: 'deselect', filter }], toggled: {} };
}

/**
 * The picked serials when the browser knows them without asking (no filter step: the serials it opened
 * with, then the toggles, in that order); null when only the server can say.
 */
export function localPicks(picks: Picks): string[] | null {
  const list = new Set<string>();
  for (const step of picks.steps) {
    if (step.op === 'select' || step.op === 'deselect') return null;
    for (const serial of step.serials) {
      if (step.op === 'add') list.add(serial);
      else list.delete(serial);
    }
  }
  for (const [serial, picked] of Object.entries(picks.toggled)) {
    if (picked) list.add(serial);
    else list.delete(serial);
  }
  return [...list];
}

/** The selection the server resolves for these picks (POST /api/v1/deviceSelection, assignBrandToSelection). */
export const selectionOfPicks = (picks: Picks): { steps: SelectionStepInput[] } => ({ steps: flushed(picks) });
