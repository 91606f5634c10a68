import type { Device } from '../device';

/** Devices counted by status: the figures a county or site card shows. */
export type StatusTally = { total: number; online: number; offline: number; warning: number };
export const emptyTally = (): StatusTally => ({ total: 0, online: 0, offline: 0, warning: 0 });
export function tally(t: StatusTally, d: Device) {
  t.total += 1;
  if (d.is_online) t.online += 1;
  else t.offline += 1;
  if (d.is_warning) t.warning += 1;
}

export type CountyRow = StatusTally & { id: number; name: string };

/**
 * One row per county holding at least one of the devices, sorted by name. `batch` keeps only devices fed
 * by that batch number (either pump).
 */
export function countyRows(
  devices: readonly Device[],
  countyNames: ReadonlyMap<number, string>,
  batch: string | null = null,
): CountyRow[] {
  const rows = new Map<number, CountyRow>();
  for (const d of devices) {
    if (d.location_id == null) continue;
    if (batch !== null && d.batchNumber !== batch && d.batch2Number !== batch) continue;
    let row = rows.get(d.location_id);
    if (!row)
      rows.set(
        d.location_id,
        (row = { id: d.location_id, name: countyNames.get(d.location_id) ?? `County ${d.location_id}`, ...emptyTally() }),
      );
    tally(row, d);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
}
