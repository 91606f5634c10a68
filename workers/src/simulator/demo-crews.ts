/**
 * The demo's service crews (issues 47 and 48): `npm start`'s fleet is serviced by simulated crews that
 * follow the day's plan, in place of the units' own site staff.
 *
 * On the simulator's clock (simulated days at SIMULATOR_SPEED), each morning at `planHour` in the crews'
 * zone (and once at the start, when the crews' working day is not over):
 *  1. the crews read the fleet as the portal shows it (GET /api/v1/device and /api/v1/batch with the
 *     maintenance credential, the technician's credential), with each pump's hour-of-week rate from the
 *     dispensing the units delivered, on the simulated clock (DispenseHistory, primed with a week of the
 *     units' usual rhythm: the demo's fleet was running before the process started);
 *  2. Service day's planner plans the day (planner-policy.ts: the portal's `planServiceDay`, refill round
 *     only, a pump due when it falls to `reserveMl`);
 *  3. each crew drives its route (season.ts `driveRoute`): at each stop's simulated arrival the technician
 *     records the refill with POST /api/v1/maintenanceRecord, as the field app does. The portal resets the
 *     pump's volume, queues `reset_ml` for the unit (which takes it at its next check-in), moves the
 *     forecasts, the maintenance list, the dashboards and the progress of any published Service day plan.
 * A refill pours the pump's own batch (one that expired since the plan: the first-expiring usable batch of
 * its fluid). The round leaves a pump whose batch is recalled or expired to the distributor
 * (planner-policy.ts, scope 'fluid').
 */
import { batchDayOf, type PumpType, type WarningCode } from '@fleet/shared';
import type { DeviceState } from './device-model.ts';
import { DispenseHistory } from './dispense-history.ts';
import {
  driveRoute,
  nextLocalHour,
  type CrewSpec,
  type FleetDeviceView,
  type Place,
  type ServicePolicy,
  type Visit,
} from './season.ts';
import type { FetchLike, Simulator } from './simulator.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The portal's device list, the fields the crews read. */
type DeviceJson = {
  serial: string;
  label: string | null;
  location_group: number | null;
  location: { lat: number; lng: number } | null;
  left_pump_type: string;
  right_pump_type: string;
  batchNumber: string | null;
  batch2Number: string | null;
  level_sensor1: boolean | null;
  level_sensor2: boolean | null;
  volume_remain: number | null;
  volume_remain2: number | null;
  is_online: boolean;
  warning_lists: string[] | null;
  battery_percent: number | null;
  last_seen_at: string | null;
  poweroff_time: string | null;
  wakeup1_time: string | null;
};
type BatchJson = { batch_no: string; batch_type: number; expire_date: string; is_recalled: boolean };

export type DemoCrewsOptions = {
  baseUrl: string;
  /** The maintenance credential (MAINTENANCE_TOKEN): the crews read and record as a technician does. */
  token: string;
  sim: Simulator;
  /** The units the simulator plays: the crews service these and leave the demo's still units be. */
  serials: readonly string[];
  history: DispenseHistory;
  /**
   * A unit's usual ml an hour at a simulated time: the crews' history is primed with a week of it at their
   * first plan, once the units' first answers brought their pump settings (ml per shot).
   */
  rhythm: (d: DeviceState, pump: 1 | 2, t: number) => number;
  crews: CrewSpec[];
  policy: ServicePolicy;
  /** Local hour (crews' zone) of the morning plan (default 6). */
  planHour?: number;
  fetchImpl?: FetchLike;
  log?: (msg: string) => void;
};

export type DemoCrews = {
  stop(): void;
  stats(): { plans: number; visits: number; refills: number; failures: number };
};

/** Days of the units' usual rhythm the crews start from (the forecast needs a day at least; a week shows the weekend). */
const PRIME_DAYS = 7;

export function startDemoCrews(o: DemoCrewsOptions): DemoCrews {
  const log = o.log ?? (() => undefined);
  const send: FetchLike = o.fetchImpl ?? ((url, init) => fetch(url, init));
  const base = o.baseUrl.replace(/\/$/, '');
  const headers = { authorization: `Token ${o.token}`, 'content-type': 'application/json', 'cache-control': 'no-cache' };
  const played = new Set(o.serials);
  const zone = o.crews[0]?.timezone ?? 'America/Chicago';
  const planHour = o.planHour ?? 6;
  const timers = new Set<NodeJS.Timeout>();
  const stats = { plans: 0, visits: 0, refills: 0, failures: 0 };
  let stopped = false;
  let primed = false;
  let lastWarn = 0;
  const warn = (msg: string) => {
    stats.failures++;
    if (Date.now() - lastWarn > 5_000) log(msg);
    lastWarn = Date.now();
  };

  /** Runs `fn` at simulated time `sim`. */
  const at = (sim: number, fn: () => Promise<void>) => {
    if (stopped) return;
    const t = setTimeout(
      () => {
        timers.delete(t);
        if (!stopped) void fn().catch((err: unknown) => warn(`demo crews: ${(err as Error).message}`));
      },
      Math.max(0, o.sim.realTime(sim) - Date.now()),
    );
    timers.add(t);
  };

  async function get<T>(path: string): Promise<T> {
    const res = await send(`${base}${path}`, { method: 'GET', headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  function view(d: DeviceJson, now: number, batches: readonly BatchJson[]): FleetDeviceView | null {
    const today = batchDayOf(new Date());
    const batchOf = (no: string | null) => batches.find((b) => b.batch_no === no);
    const state = o.sim.device(d.serial);
    if (!played.has(d.serial) || !state || !d.location) return null;
    const pumps = (
      [
        [1, d.left_pump_type, d.volume_remain, d.level_sensor1, d.batchNumber],
        [2, d.right_pump_type, d.volume_remain2, d.level_sensor2, d.batch2Number],
      ] as const
    ).flatMap(([pump, type, volume, sensor, batch]) =>
      type === 'Sunscreen' || type === 'Sanitizer'
        ? [
            {
              pump,
              fluid: type as PumpType,
              volumeMl: volume ?? 0,
              reservoirMl: state.params.reservoirMl,
              sensor: sensor !== false,
              batch,
              batchRecalled: !!batchOf(batch)?.is_recalled,
              batchExpired: (batchOf(batch)?.expire_date.slice(0, 10) ?? '9999') < today,
              rate: o.history.rate(d.serial, pump, now),
            },
          ]
        : [],
    );
    return {
      serial: d.serial,
      site: { id: String(d.location_group ?? d.serial), name: d.label ?? d.serial, timezone: state.timezone },
      lat: d.location.lat,
      lng: d.location.lng,
      pumps,
      batteryPercent: d.battery_percent,
      warnings: (d.warning_lists ?? []) as WarningCode[],
      online: d.is_online,
      lastSeenAt: d.last_seen_at ? new Date(d.last_seen_at) : null,
      checkin: {
        poweroffMinutes: Number(d.poweroff_time ?? 30),
        wakeupMinutes: Number(d.wakeup1_time ?? 5),
        nextCheckinBy: null,
      },
    };
  }

  /** The morning plan: read the fleet, plan the day, send each crew along its route. */
  async function plan(leaveAt?: number) {
    const now = o.sim.simTime();
    if (!primed) {
      primed = true;
      for (const serial of o.serials) {
        const d = o.sim.device(serial);
        for (const p of d?.pumps ?? [])
          o.history.prime(serial, p.pump, d!.simStart - PRIME_DAYS * DAY, d!.simStart, (t) => o.rhythm(d!, p.pump, t));
      }
    }
    const [devices, batches] = await Promise.all([get<DeviceJson[]>('/api/v1/device'), get<BatchJson[]>('/api/v1/batch')]);
    const fleet = devices.flatMap((d) => view(d, now, batches) ?? []);
    const bySerial = new Map(fleet.map((d) => [d.serial, d]));
    const placeOf = (serial: string): Place | undefined => {
      const d = bySerial.get(serial);
      return d && { lat: d.lat, lng: d.lng, site: d.site.id };
    };
    const routes = await o.policy.planDay({ now: new Date(now), fleet, crews: o.crews });
    stats.plans++;
    let planned = 0;
    let km = 0;
    for (const route of routes) {
      const crew = o.crews.find((c) => c.id === route.crew);
      if (!crew) continue;
      const day = driveRoute(route, crew, now, placeOf, undefined, leaveAt);
      km += day.km;
      planned += day.legs.length;
      for (const leg of day.legs) at(leg.at, () => service(crew, leg.visit, bySerial.get(leg.visit.serial)!, batches));
    }
    log(`demo crews: the plan of simulated ${new Date(now).toISOString().slice(0, 10)}: ${planned} visits, ${km.toFixed(0)} km`);
  }

  /** One unit served: the technician's record, through the portal's own call. */
  async function service(crew: CrewSpec, visit: Visit, unit: FleetDeviceView, batches: BatchJson[]) {
    if (!visit.refills.length) return;
    const today = batchDayOf(new Date());
    const usable = (no: string | null) =>
      batches.some((b) => b.batch_no === no && !b.is_recalled && b.expire_date.slice(0, 10) >= today);
    const refills = visit.refills.map((r) => {
      const own = unit.pumps.find((p) => p.pump === r.pump)?.batch ?? null;
      const fluid = unit.pumps.find((p) => p.pump === r.pump)?.fluid;
      const fresh = batches
        .filter((b) => b.batch_type === (fluid === 'Sanitizer' ? 2 : 1) && usable(b.batch_no))
        .sort((a, b) => a.expire_date.localeCompare(b.expire_date) || a.batch_no.localeCompare(b.batch_no))[0]?.batch_no;
      return { pump: r.pump, batch: r.batch ?? (usable(own) ? own : (fresh ?? own)) };
    });
    const sim = Math.round(o.sim.simTime() / 60_000);
    const res = await send(`${base}/api/v1/maintenanceRecord`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        serial: visit.serial,
        refills,
        note: 'Refill round (demo crew)',
        crew: { id: crew.id, name: `Demo ${crew.id}` },
        idempotency_key: `demo-${visit.serial}-${sim}`,
      }),
    });
    if (res.status === 200 || res.status === 201) {
      stats.visits++;
      stats.refills += refills.length;
    } else if (res.status === 401 || res.status === 403) {
      warn(`demo crews: the maintenance credential was refused (${res.status}): the site staff refill again`);
      stopAll(true);
    } else warn(`demo crews: record for ${visit.serial} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }

  function nextPlan() {
    const next = nextLocalHour(o.sim.simTime() + 1, zone, planHour);
    at(next, async () => {
      try {
        await plan();
      } finally {
        nextPlan();
      }
    });
  }

  function stopAll(staffTakeOver: boolean) {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    if (!staffTakeOver) return;
    for (const serial of o.serials) {
      const d = o.sim.device(serial);
      if (d) d.params.siteStaffRefills = true;
    }
  }

  // At the start: if the crews' working day is not over, they plan once every unit has checked in (two
  // sleeps: the portal then shows the units' own levels, and their pump settings are known) and leave at once
  // (or at the start of their hours).
  const crew = o.crews[0];
  if (crew) {
    const sleep = Math.max(...o.serials.map((s) => o.sim.device(s)?.config.poweroffMinutes ?? 30));
    const first = o.sim.simTime() + 2 * sleep * 60_000;
    const end = nextLocalHour(first, zone, crew.hours.end);
    const start = nextLocalHour(first, zone, crew.hours.start);
    if (end < start && end - first > HOUR) at(first, () => plan(first));
    else if (start < end && nextLocalHour(first, zone, planHour) > start) at(first, () => plan());
  }
  nextPlan();

  return { stop: () => stopAll(false), stats: () => ({ ...stats }) };
}
