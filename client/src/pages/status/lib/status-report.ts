import {
  batchStateLabel,
  addStatusCounts,
  emptyStatusCounts,
  isLowBattery,
  isLowFluid,
  remainingTsp,
  warningText,
  type BatchStatus,
  type StatusCountsAnswer,
  type StatusCountsByCounty,
} from '@fleet/shared';
import { connectionOf, CONNECTION_TEXT, type Connection, type Device } from '../../../entities/device';

/**
 * The /status report as pure functions: the caller's fleet per county and per device, from the devices in
 * memory (live by push), the sites (their time zones) and the batches (their states).
 */
/** The fields of a device the report reads: all the page keeps of each device answer it reads (issue 46). */
export const STATUS_FIELDS = [
  'serial',
  'label',
  'address',
  'location_group',
  'location_id',
  'number',
  'is_online',
  'is_registration',
  'is_pause',
  'is_maintenance',
  'warning_lists',
  'battery_percent',
  'left_pump_type',
  'right_pump_type',
  'volume_remain',
  'volume_remain2',
  'level_sensor1',
  'level_sensor2',
  'batchNumber',
  'batch2',
  'batch2Number',
  'last_seen_at',
  'next_wakeup_time',
] as const satisfies readonly (keyof Device)[];
export type StatusDevice = Pick<Device, (typeof STATUS_FIELDS)[number]>;

/** A device answer (or a pushed patch of one) narrowed to the report's fields. */
export function statusFieldsOf<T extends Partial<Device>>(device: T): Partial<StatusDevice> {
  const out: Partial<Record<keyof StatusDevice, unknown>> = {};
  for (const field of STATUS_FIELDS) if (field in device) out[field] = device[field];
  return out as Partial<StatusDevice>;
}

export type Site = { id: number; name: string | null; address: string | null; timezone_id: string | null };
export type BatchInfo = { batchNumber: string; status: BatchStatus; is_recalled: boolean };
export type BatchState = { side: 'Left' | 'Right'; number: string; label: string; tone: 'ok' | 'warn' | 'bad' | 'muted' };
export type FluidLine = { side: 'Left' | 'Right'; type: string; tsp: number; low: boolean; empty: boolean };

export type StatusRow = {
  serial: string;
  name: string;
  site: string;
  connection: Connection;
  connectionText: string;
  paused: boolean;
  maintenance: boolean;
  warnings: string[];
  battery: number | null;
  lowBattery: boolean;
  fluids: FluidLine[];
  batches: BatchState[];
  checkIn: { label: 'Last check-in' | 'Next check-in due'; at: string } | null;
  /** The device's site's zone; UTC for a device without a site (or whose site has no zone). */
  timeZone: string;
  /** Whether timeZone is its site's own, not the UTC it falls back to. */
  siteZone: boolean;
};
/** The report's counts: the shape GET /api/v1/statusCounts answers (the same rules, counted in the database). */
export type StatusCounts = StatusCountsAnswer;
export type CountyReport = {
  id: number | null;
  name: string;
  counts: StatusCounts;
  rows: StatusRow[];
  /**
   * A fleet too large to list whole (byCountyReport): whether this county's devices are listed ('open': read
   * and live; 'loading': being read; 'closed': its counts only). Absent when every device is listed.
   */
  listing?: 'closed' | 'loading' | 'open';
};
export type StatusReport = { counts: StatusCounts; counties: CountyReport[] };

function addTo(counts: StatusCounts, row: StatusRow) {
  counts.total++;
  counts[row.connection]++;
  if (row.warnings.length > 0) counts.warning++;
  if (row.paused) counts.paused++;
  if (row.maintenance) counts.maintenance++;
  if (row.lowBattery) counts.lowBattery++;
}

function batchState(side: BatchState['side'], number: string | null, batches: ReadonlyMap<string, BatchInfo>): BatchState | null {
  if (!number) return null;
  const batch = batches.get(number);
  if (!batch) return { side, number, label: 'Unknown', tone: 'muted' };
  // Spec section 4: a recalled batch is red whatever its status.
  const tone =
    batch.is_recalled || batch.status === 'EXPIRED'
      ? 'bad'
      : batch.status === 'ALMOST_EXPIRED'
        ? 'warn'
        : batch.status === 'IN_USE'
          ? 'ok'
          : 'muted';
  return { side, number, label: batchStateLabel(batch), tone };
}

function fluids(device: StatusDevice): FluidLine[] {
  const pumps = [
    { side: 'Left' as const, type: device.left_pump_type, volume: device.volume_remain, sensor: device.level_sensor1 },
    { side: 'Right' as const, type: device.right_pump_type, volume: device.volume_remain2, sensor: device.level_sensor2 },
  ];
  return pumps
    .filter((p) => p.type && p.type !== 'Unspecified')
    .map((p) => ({
      side: p.side,
      type: p.type,
      tsp: remainingTsp(p.volume ?? 0),
      low: isLowFluid(p.volume ?? 0),
      empty: p.sensor === false,
    }));
}

/** The last check-in when the device answer carries it, else when the device is next due (both pushed). */
function checkIn(device: StatusDevice): StatusRow['checkIn'] {
  const last = typeof device.last_seen_at === 'string' ? device.last_seen_at : null;
  if (last) return { label: 'Last check-in', at: last };
  return device.next_wakeup_time ? { label: 'Next check-in due', at: device.next_wakeup_time } : null;
}

export function statusRow(
  device: StatusDevice,
  sites: ReadonlyMap<number, Site>,
  batches: ReadonlyMap<string, BatchInfo>,
): StatusRow {
  const site = sites.get(device.location_group);
  const connection = connectionOf(device);
  return {
    serial: device.serial,
    name: device.label || 'NoName',
    site: device.address || site?.address || '',
    connection,
    connectionText: CONNECTION_TEXT[connection],
    paused: device.is_pause,
    maintenance: device.is_maintenance,
    warnings: (device.warning_lists ?? []).map(warningText),
    battery: device.battery_percent,
    lowBattery: isLowBattery(device.battery_percent),
    fluids: fluids(device),
    batches: [
      batchState('Left', device.batchNumber, batches),
      batchState('Right', device.batch2 ? device.batch2Number : null, batches),
    ].filter((b): b is BatchState => b !== null),
    checkIn: checkIn(device),
    timeZone: site?.timezone_id ?? 'UTC',
    siteZone: Boolean(site?.timezone_id),
  };
}

/**
 * What the report's lead says of its zones, after when it was opened: one sentence, true of every row.
 * One zone from the sites: the sites' time. One zone because no row has a site zone (each falls back to
 * UTC), or a site in UTC beside such rows: UTC, named. Several zones: each check-in names its own.
 */
export function zoneNote(rows: readonly Pick<StatusRow, 'timeZone' | 'siteZone'>[]): string | null {
  const zones = new Set(rows.map((row) => row.timeZone));
  if (zones.size === 0) return null;
  if (zones.size > 1) return "Check-in times are in each site's own time zone, named after the time.";
  return rows.every((row) => row.siteZone)
    ? 'Every time on this report is the sites’ time.'
    : 'Every time on this report is in UTC.';
}

/**
 * Rows of devices that did not change are reused (a push replaces only the devices it patches), so a
 * re-render after a push redraws only those rows. The cache holds for one pair of sites and batches.
 */
export function rowCache() {
  let cache = new WeakMap<StatusDevice, StatusRow>();
  let key: [ReadonlyMap<number, Site>, ReadonlyMap<string, BatchInfo>] | null = null;
  return (device: StatusDevice, sites: ReadonlyMap<number, Site>, batches: ReadonlyMap<string, BatchInfo>): StatusRow => {
    if (!key || key[0] !== sites || key[1] !== batches) {
      cache = new WeakMap();
      key = [sites, batches];
    }
    let row = cache.get(device);
    if (!row) {
      row = statusRow(device, sites, batches);
      cache.set(device, row);
    }
    return row;
  };
}

/** Per county (by name; devices on no county last), each county's devices by site and number. */
export function statusReport(
  devices: readonly StatusDevice[],
  countyNames: ReadonlyMap<number, string>,
  sites: ReadonlyMap<number, Site>,
  batches: ReadonlyMap<string, BatchInfo>,
  rowOf: (
    device: StatusDevice,
    sites: ReadonlyMap<number, Site>,
    batches: ReadonlyMap<string, BatchInfo>,
  ) => StatusRow = statusRow,
): StatusReport {
  const counts = emptyStatusCounts();
  const byCounty = new Map<number | null, CountyReport>();
  const sorted = [...devices].sort(
    (a, b) => a.location_group - b.location_group || (a.number ?? 0) - (b.number ?? 0) || a.serial.localeCompare(b.serial),
  );
  for (const device of sorted) {
    const id = device.location_id ?? null;
    let county = byCounty.get(id);
    if (!county) {
      county = { id, name: countyName(id, countyNames), counts: emptyStatusCounts(), rows: [] };
      byCounty.set(id, county);
    }
    const row = rowOf(device, sites, batches);
    county.rows.push(row);
    addTo(county.counts, row);
    addTo(counts, row);
  }
  return { counts, counties: [...byCounty.values()].sort(byCountyName) };
}

/** Counties by name, no county last. */
const byCountyName = (a: CountyReport, b: CountyReport) =>
  a.id === null ? 1 : b.id === null ? -1 : a.name.localeCompare(b.name);
const countyName = (id: number | null, countyNames: ReadonlyMap<number, string>) =>
  id === null ? 'No county' : (countyNames.get(id) ?? `County ${id}`);

/**
 * The report of a fleet too large to list whole (issue 46): a section for each county the server counted
 * (GET /api/v1/statusCounts). A county whose devices were read (`listed`) shows their rows and its counts
 * from them, live by push like the whole report; the others show the server's counts (as of its answer),
 * a county being read (`reading`) too. The summary is the sum of the sections, so it never disagrees with them.
 */
export function byCountyReport(
  server: StatusCountsByCounty,
  held: StatusReport,
  reading: ReadonlySet<number>,
  listed: ReadonlySet<number>,
  countyNames: ReadonlyMap<number, string>,
): StatusReport {
  const heldCounties = new Map(held.counties.map((county) => [county.id, county]));
  const counts = emptyStatusCounts();
  const counties = server.counties.map(({ id, counts: counted }): CountyReport => {
    const listing = id === null ? 'closed' : listed.has(id) ? 'open' : reading.has(id) ? 'loading' : 'closed';
    // A county listed whose devices all went elsewhere holds none.
    const read = listing === 'open' ? (heldCounties.get(id) ?? { counts: emptyStatusCounts(), rows: [] }) : null;
    const shown = read?.counts ?? counted;
    addStatusCounts(counts, shown);
    return { id, name: countyName(id, countyNames), counts: shown, rows: read?.rows ?? [], listing };
  });
  return { counts, counties: counties.sort(byCountyName) };
}

/** Moments in a site's zone: one formatter for every page that shows site times (/status, /maintenance-result). */
export { siteTime } from '../../../shared/lib';
