/**
 * The season runner (issue 47): a fleet of simulated dispensers, service crews and a service policy on
 * one simulated clock, in process and without HTTP, so 500 units for 60 days take minutes. Service day
 * (issue 48) plugs its planner in as a `ServicePolicy` and compares it with the built-in ones on the same
 * customers (demand is keyed by seed, serial, pump and hour: device-model.ts).
 *
 * Each 5 simulated minutes:
 *  1. scenarios act on the units (scenarios.ts), every unit plays the time that passed (device-model.ts);
 *  2. the technicians' visits that are due happen: the technician refills and records it in the portal
 *     (`resetMl`, and a batch change when the fluid is swapped), and the unit picks the reset up at its
 *     next check-in, as a real one does;
 *  3. the units whose wake-up is due check in to the portal (unless their network is down) with what
 *     they buffered, and apply the answer;
 *  4. once a day, at `planHour` in the crews' zone, the policy reads the fleet as the portal shows it and
 *     answers the day's routes.
 * The portal is an interface (`SeasonPortal`): `memoryPortal` applies the shared rules in process; the
 * cross-check (tests/bench/season-crosscheck.ts) puts the real gateway and database behind it.
 *
 * Figures per run: the share of pump-hours empty within 08:00-19:00 site time, km driven, visits made,
 * the share of visits where every pump refilled was still more than half full, and customers turned away.
 * docs/simulator.md documents the policy interface.
 */
import {
  batchDayOf,
  batchWarningState,
  deviceWarnings,
  isOfflineAt,
  LOW_FLUID_THRESHOLD,
  simulatedClock,
  type CheckinAnswer,
  type DeviceConfig,
  type PumpType,
  type SimulatedClock,
  type WarningCode,
} from '@fleet/shared';
import {
  advance,
  buildUpload,
  createDevice,
  localTime,
  nextWake,
  seededRandom,
  settleUpload,
  zoneOffset,
  type DeviceState,
  type ModelParams,
  type Upload,
} from './device-model.ts';
import { DispenseHistory } from './dispense-history.ts';
import { applyScenarios, networkDown, recalledBatchesAt, type Scenario } from './scenarios.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TICK = 5 * MINUTE;

// ------------------------------------------------------------------ the policy interface

/** One pump as the portal shows it. */
export type PumpView = {
  pump: 1 | 2;
  fluid: PumpType;
  /** Remaining volume at the last check-in, ml. */
  volumeMl: number;
  reservoirMl: number;
  /** false when the level sensor last read empty. */
  sensor: boolean;
  batch: string | null;
  batchRecalled: boolean;
  batchExpired: boolean;
  /** The batch's expiry date (YYYY-MM-DD), when known. */
  batchExpireDate?: string | null;
  /** Millilitres an hour by hour-of-week slot over the forecast's window (forecastRates), when the portal has them. */
  rate?: readonly number[] | null;
};

/** One unit as the portal shows it (what a planner could read from the device list and its detail). */
export type FleetDeviceView = {
  serial: string;
  site: { id: string; name: string; timezone: string };
  lat: number;
  lng: number;
  pumps: PumpView[];
  batteryPercent: number | null;
  warnings: WarningCode[];
  online: boolean;
  lastSeenAt: Date | null;
  /** Its check-in schedule: sleeps poweroffMinutes, then is awake wakeupMinutes; due again by nextCheckinBy. */
  checkin: { poweroffMinutes: number; wakeupMinutes: number; nextCheckinBy: Date | null };
};

/** A service crew: one van, one technician. */
export type CrewSpec = {
  id: string;
  depot: { lat: number; lng: number };
  /** Working hours, local hours of `timezone` (e.g. 8 and 17). The van is back at the depot by `end`. */
  hours: { start: number; end: number };
  timezone: string;
  /** Fluid the van carries per day, ml. */
  capacityMl: number;
  /** Average road speed, km/h (road distance is the straight line x ROAD_FACTOR). */
  speedKmh: number;
  /** Minutes on site per unit visited. */
  serviceMinutes: number;
  /** Minutes per stop (parking, walking in): once on arriving at a site, whatever the units visited there. */
  stopMinutes?: number;
  /** The batch a technician swaps in for a recalled or expired one, per fluid. */
  stock?: Partial<Record<PumpType, string>>;
};

/** One stop: the unit and the pumps to refill (with a batch when the fluid is swapped for another batch). */
export type Visit = { serial: string; refills: { pump: 1 | 2; batch?: string }[] };
export type CrewRoute = { crew: string; visits: Visit[] };

export type PlanInput = { now: Date; fleet: readonly FleetDeviceView[]; crews: readonly CrewSpec[] };

/**
 * A service policy: once a simulated day, it gets the fleet as the portal shows it and the crews, and
 * answers each crew's ordered visits. The runner drives the vans: it drops a visit the van cannot reach
 * and still be back by the end of its hours, or a refill its remaining fluid cannot cover.
 */
export interface ServicePolicy {
  name: string;
  /** The units' own site staff refill too (device-model.ts siteStaffRefills): the 'site-staff' baseline only. */
  siteStaff?: boolean;
  planDay(input: PlanInput): CrewRoute[] | Promise<CrewRoute[]>;
}

// ------------------------------------------------------------------ geometry

/** Road distance over straight-line distance, a usual figure for suburban roads. */
export const ROAD_FACTOR = 1.3;
export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
export const roadKm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => haversineKm(a, b) * ROAD_FACTOR;

/** Where a unit stands: its position and its site (units of one site are one stop). */
export type Place = { lat: number; lng: number; site: string };

/**
 * A crew's day along its route: it leaves the depot at `hours.start` (local, the first after `planAt`, or
 * `leaveAt`),
 * drives straight-line km x ROAD_FACTOR at `speedKmh`, spends `stopMinutes` on arriving at a site and
 * `serviceMinutes` a unit. A visit it cannot make and still be back at the depot by `hours.end` is dropped,
 * and so is one `accept` refuses (the runner's van out of fluid). Answers each visit's arrival and the km.
 */
export function driveRoute(
  route: CrewRoute,
  crew: CrewSpec,
  planAt: number,
  placeOf: (serial: string) => Place | undefined,
  accept: (visit: Visit) => boolean = () => true,
  /** Leave the depot at this instant instead, within the day's hours (a crew that starts late). */
  leaveAt?: number,
): { legs: { at: number; visit: Visit }[]; km: number; dropped: number } {
  const dayStart = leaveAt ?? nextLocalHour(planAt, crew.timezone, crew.hours.start);
  const dayEnd =
    leaveAt === undefined
      ? dayStart + (crew.hours.end - crew.hours.start) * HOUR
      : nextLocalHour(leaveAt, crew.timezone, crew.hours.end);
  const legs: { at: number; visit: Visit }[] = [];
  let at = dayStart;
  let where: { lat: number; lng: number } = crew.depot;
  let site: string | null = null;
  let km = 0;
  let dropped = 0;
  for (const v of route.visits) {
    const place = placeOf(v.serial);
    if (!place) continue;
    const leg = roadKm(where, place);
    const arrive = at + (leg / crew.speedKmh) * HOUR;
    const service = (crew.serviceMinutes + (place.site !== site ? (crew.stopMinutes ?? 0) : 0)) * MINUTE;
    const back = (roadKm(place, crew.depot) / crew.speedKmh) * HOUR;
    if (arrive + service + back > dayEnd || !accept(v)) {
      dropped++;
      continue;
    }
    km += leg;
    legs.push({ at: arrive, visit: v });
    at = arrive + service;
    where = place;
    site = place.site;
  }
  if (legs.length) km += roadKm(where, crew.depot);
  return { legs, km, dropped };
}

// ------------------------------------------------------------------ built-in policies

/** The low-fluid warnings: a pump that shows one needs fluid now. */
export const LOW_FLUID_WARNINGS: readonly WarningCode[] = [
  'LEFT_PUMP_VOLUME',
  'RIGHT_PUMP_VOLUME',
  'LEFT_SUNSCREEN_PUMP',
  'RIGHT_SUNSCREEN_PUMP',
  'LEFT_SANITIZER_PUMP',
  'RIGHT_SANITIZER_PUMP',
];

/** No crews and no site staff: what the fleet does left alone. */
export const nonePolicy: ServicePolicy = { name: 'none', planDay: () => [] };

/** No crews; the sites' own staff refill soon after a pump runs low (the demo's behaviour). */
export const siteStaffPolicy: ServicePolicy = { name: 'site-staff', siteStaff: true, planDay: () => [] };

/**
 * The naive policy: visit a unit once the portal shows a low-fluid warning on it, nearest first. The
 * crews take turns picking the nearest waiting unit to where they are until their day is full; at a unit
 * the technician refills each pump that is low or empty, and swaps a recalled or expired batch (a recall
 * also pauses the unit, so it is a reason to visit too: any operator would answer a recall).
 */
export const naivePolicy: ServicePolicy = {
  name: 'naive',
  planDay({ fleet, crews }) {
    const waiting = fleet.filter((d) =>
      d.warnings.some((w) => LOW_FLUID_WARNINGS.includes(w) || w === 'BATCH_RECALLED' || w === 'BATCH_EXPIRED'),
    );
    const state = crews.map((c) => ({
      crew: c,
      at: c.depot,
      site: null as string | null,
      minutes: 0,
      visits: [] as Visit[],
      open: true,
    }));
    const taken = new Set<string>();
    for (let open = true; open;) {
      open = false;
      for (const s of state) {
        if (!s.open) continue;
        const day = (s.crew.hours.end - s.crew.hours.start) * 60;
        let best: FleetDeviceView | null = null;
        let bestKm = Infinity;
        for (const d of waiting) {
          if (taken.has(d.serial)) continue;
          const km = roadKm(s.at, d);
          if (km < bestKm) [best, bestKm] = [d, km];
        }
        const drive = (km: number) => (km / s.crew.speedKmh) * 60;
        const service = best ? s.crew.serviceMinutes + (best.site.id !== s.site ? (s.crew.stopMinutes ?? 0) : 0) : 0;
        if (!best || s.minutes + drive(bestKm) + service + drive(roadKm(best, s.crew.depot)) > day) {
          s.open = false;
          continue;
        }
        taken.add(best.serial);
        s.minutes += drive(bestKm) + service;
        s.at = best;
        s.site = best.site.id;
        const refills = best.pumps
          .filter((p) => !p.sensor || p.volumeMl <= LOW_FLUID_THRESHOLD || p.batchRecalled || p.batchExpired)
          .map((p) =>
            (p.batchRecalled || p.batchExpired) && s.crew.stock?.[p.fluid]
              ? { pump: p.pump, batch: s.crew.stock[p.fluid]! }
              : { pump: p.pump },
          );
        s.visits.push({ serial: best.serial, refills });
        open = true;
      }
    }
    return state.filter((s) => s.visits.length).map((s) => ({ crew: s.crew.id, visits: s.visits }));
  },
};

// ------------------------------------------------------------------ the fleet

export type SeasonUnit = {
  serial: string;
  site: { id: string; name: string; timezone: string };
  lat: number;
  lng: number;
  leftPumpType: PumpType;
  rightPumpType: PumpType;
  batch: string | null;
  batch2: string | null;
  mlPerShot: number;
  poweroffMinutes: number;
  wakeupMinutes: number;
  /** Starting levels, ml (staggered over the cycle by `seasonFleet`). */
  volumeMl: number;
  volume2Ml: number;
};
export type SeasonBatch = { batchNo: string; fluid: PumpType; expireDate: string };
export type SeasonFleet = { units: SeasonUnit[]; batches: SeasonBatch[] };

/**
 * A fleet drawn from a seed: `sites` sites scattered within `radiusKm` of the centre (New Orleans by
 * default), `devices` units spread over them, two in five with a sanitizer pump beside the sunscreen one,
 * levels staggered between the low line and full.
 */
export function seasonFleet(
  seed: number,
  opts: {
    devices: number;
    sites?: number;
    center?: { lat: number; lng: number };
    radiusKm?: number;
    timezone?: string;
    start?: number;
  },
): SeasonFleet {
  const random = seededRandom(seed ^ 0x0f1ee7);
  const center = opts.center ?? { lat: 29.9511, lng: -90.0715 };
  const radius = opts.radiusKm ?? 45;
  const timezone = opts.timezone ?? 'America/Chicago';
  const siteCount = Math.max(1, opts.sites ?? Math.ceil(opts.devices / 10));
  const sites = Array.from({ length: siteCount }, (_, k) => {
    const r = radius * Math.sqrt(random());
    const a = 2 * Math.PI * random();
    return {
      id: `site-${k + 1}`,
      name: `Site ${k + 1}`,
      timezone,
      lat: center.lat + (r / 111) * Math.sin(a),
      lng: center.lng + (r / (111 * Math.cos((center.lat * Math.PI) / 180))) * Math.cos(a),
    };
  });
  const start = opts.start ?? Date.UTC(2026, 5, 1);
  const expiry = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
  const batches: SeasonBatch[] = [
    { batchNo: 'SPF-S1', fluid: 'Sunscreen', expireDate: expiry(400) },
    { batchNo: 'SPF-S2', fluid: 'Sunscreen', expireDate: expiry(420) },
    { batchNo: 'SAN-S1', fluid: 'Sanitizer', expireDate: expiry(500) },
    // What crews carry to swap a recalled batch.
    { batchNo: 'SPF-S3', fluid: 'Sunscreen', expireDate: expiry(600) },
    { batchNo: 'SAN-S2', fluid: 'Sanitizer', expireDate: expiry(600) },
  ];
  const low = LOW_FLUID_THRESHOLD + 30;
  const units = Array.from({ length: opts.devices }, (_, i): SeasonUnit => {
    const site = sites[i % siteCount]!;
    const dual = random() < 0.4;
    const a = 2 * Math.PI * random();
    return {
      serial: `SEA${String(i + 1).padStart(5, '0')}`,
      site: { id: site.id, name: site.name, timezone },
      lat: Number((site.lat + 0.0006 * Math.sin(a)).toFixed(6)),
      lng: Number((site.lng + 0.0007 * Math.cos(a)).toFixed(6)),
      leftPumpType: 'Sunscreen',
      rightPumpType: dual ? 'Sanitizer' : 'Unspecified',
      batch: i % 2 ? 'SPF-S2' : 'SPF-S1',
      batch2: dual ? 'SAN-S1' : null,
      mlPerShot: 2.464,
      poweroffMinutes: 30,
      wakeupMinutes: 5,
      volumeMl: Math.round(low + (1500 - low) * random()),
      volume2Ml: dual ? Math.round(low + (1500 - low) * random()) : 0,
    };
  });
  return { units, batches };
}

export const defaultCrews = (count: number, opts: { depot?: { lat: number; lng: number }; timezone?: string } = {}): CrewSpec[] =>
  Array.from({ length: count }, (_, k) => ({
    id: `crew-${k + 1}`,
    depot: opts.depot ?? { lat: 29.9511, lng: -90.0715 },
    hours: { start: 8, end: 17 },
    timezone: opts.timezone ?? 'America/Chicago',
    capacityMl: 45_000,
    speedKmh: 40,
    // The service day's figures (issue 48): 10 minutes a stop plus 5 a unit.
    serviceMinutes: 5,
    stopMinutes: 10,
    stock: { Sunscreen: 'SPF-S3', Sanitizer: 'SAN-S2' },
  }));

// ------------------------------------------------------------------ the portal behind the runner

/** What the runner needs of a portal: the device gateway, a technician's writes, and the fleet as shown. */
export interface SeasonPortal {
  /** A check-in; null when it was not stored (the unit keeps its buffer and tries at its next wake-up). */
  checkin(unit: SeasonUnit, upload: Upload, at: number): Promise<Pick<CheckinAnswer, 'config' | 'pending'> | null>;
  /** POST /resetMl: the pump was refilled to its reservoir. */
  resetMl(serial: string, pump: 1 | 2, at: number): Promise<void>;
  /** The batch feeding a pump changed (a technician swapped the fluid). */
  changeBatch(serial: string, pump: 1 | 2, batch: string, at: number): Promise<void>;
  /** A batch is recalled: the portal flags it and pauses the units it feeds. */
  recall(batch: string, at: number): Promise<void>;
  /** The scheduled jobs (fleet health) at `at`. */
  tick?(at: number): Promise<void>;
  view(at: number): Promise<FleetDeviceView[]>;
}

type Row = {
  unit: SeasonUnit;
  volume: [number, number];
  sensor: [boolean, boolean];
  battery: number | null;
  lastSeenAt: number | null;
  batch: [string | null, string | null];
  paused: boolean;
  pending: { id: number; setting: string; desired: unknown }[];
};

/**
 * The portal in process, on the shared rules: a check-in takes the last level and battery readings and
 * settles acknowledged changes, as the gateway does; warnings by `deviceWarnings`, online by
 * `isOfflineAt`, batch expiry by the batch day, all at the runner's clock.
 */
export function memoryPortal(
  fleet: SeasonFleet,
  opts: { reservoirMl?: number; start?: number; history?: DispenseHistory } = {},
): SeasonPortal {
  const reservoirMl = opts.reservoirMl ?? 1500;
  // The pump events it stored, for the forecast (the portal reads them from pump_events).
  let history: DispenseHistory | null = opts.history ?? (opts.start === undefined ? null : new DispenseHistory(opts.start));
  const rows = new Map<string, Row>(
    fleet.units.map((u) => [
      u.serial,
      {
        unit: u,
        volume: [u.volumeMl, u.volume2Ml],
        sensor: [u.volumeMl > 0, u.volume2Ml > 0],
        battery: null,
        lastSeenAt: null,
        batch: [u.batch, u.batch2],
        paused: false,
        pending: [],
      },
    ]),
  );
  const batches = new Map(fleet.batches.map((b) => [b.batchNo, { ...b, recalled: false }]));
  let ids = 0;
  const row = (serial: string) => rows.get(serial)!;
  const unpauseIfClear = (r: Row) => {
    if (r.paused && !r.batch.some((b) => b && batches.get(b)?.recalled)) r.paused = false;
  };
  return {
    async checkin(unit, upload, at) {
      const r = row(unit.serial);
      history ??= new DispenseHistory(at);
      for (const d of upload.body.dispenses) history.add(unit.serial, d.pump, Date.parse(d.at), d.ml);
      for (const l of upload.body.levels) {
        r.volume[l.pump - 1] = l.volumeRemain;
        r.sensor[l.pump - 1] = l.sensor;
      }
      const b = upload.body.batteries.at(-1);
      if (b) r.battery = b.percent;
      if (upload.body.applied.length) r.pending = r.pending.filter((p) => !upload.body.applied.includes(p.id));
      r.lastSeenAt = at;
      return { config: configOf(unit, r.paused), pending: r.pending.slice() };
    },
    async resetMl(serial, pump) {
      const r = row(serial);
      r.volume[pump - 1] = reservoirMl;
      r.sensor[pump - 1] = true;
      // A newer reset of the same pump replaces an older one not yet picked up (one pending change per setting).
      r.pending = r.pending.filter((p) => p.setting !== `reset_ml_${pump}`);
      r.pending.push({ id: ++ids, setting: `reset_ml_${pump}`, desired: { pump_number: pump, volume_remain: reservoirMl } });
    },
    async changeBatch(serial, pump, batch) {
      const r = row(serial);
      r.batch[pump - 1] = batch;
      unpauseIfClear(r);
    },
    async recall(batch) {
      const b = batches.get(batch);
      if (!b) return;
      b.recalled = true;
      for (const r of rows.values()) if (r.batch.includes(batch)) r.paused = true;
    },
    async view(at) {
      const today = batchDayOf(new Date(at));
      return [...rows.values()].map((r): FleetDeviceView => {
        const u = r.unit;
        const state = (no: string | null) => {
          const b = no ? batches.get(no) : undefined;
          return b ? batchWarningState(b.expireDate, b.recalled, today) : null;
        };
        const pumps: PumpView[] = [
          { pump: 1 as const, fluid: u.leftPumpType },
          ...(u.rightPumpType !== 'Unspecified' ? [{ pump: 2 as const, fluid: u.rightPumpType }] : []),
        ].map((p) => {
          const no = r.batch[p.pump - 1]!;
          const s = state(no);
          return {
            ...p,
            volumeMl: r.volume[p.pump - 1]!,
            reservoirMl,
            sensor: r.sensor[p.pump - 1]!,
            batch: no,
            batchRecalled: !!s?.recalled,
            batchExpired: !!s?.expired,
            batchExpireDate: (no && batches.get(no)?.expireDate) ?? null,
            rate: history?.rate(u.serial, p.pump, at) ?? null,
          };
        });
        const warnings = deviceWarnings({
          batteryPercent: r.battery,
          leftPumpType: u.leftPumpType,
          rightPumpType: u.rightPumpType,
          levelSensor1: r.sensor[0],
          levelSensor2: r.sensor[1],
          volumeRemain: r.volume[0],
          volumeRemain2: r.volume[1],
          neverReported: r.lastSeenAt === null,
          leftBatch: state(r.batch[0]),
          rightBatch: state(r.batch[1]),
        });
        const lastSeen = r.lastSeenAt;
        return {
          serial: u.serial,
          site: u.site,
          lat: u.lat,
          lng: u.lng,
          pumps,
          batteryPercent: r.battery,
          warnings,
          online:
            lastSeen !== null &&
            !isOfflineAt({ lastSeenAt: lastSeen, poweroffMinutes: u.poweroffMinutes, wakeupMinutes: u.wakeupMinutes }, at),
          lastSeenAt: lastSeen === null ? null : new Date(lastSeen),
          checkin: {
            poweroffMinutes: u.poweroffMinutes,
            wakeupMinutes: u.wakeupMinutes,
            nextCheckinBy: lastSeen === null ? null : new Date(lastSeen + u.poweroffMinutes * MINUTE),
          },
        };
      });
    },
  };
}

/** The configuration the gateway answers, for a unit of the season fleet. */
export function configOf(unit: SeasonUnit, paused: boolean): DeviceConfig {
  return {
    is_pause: paused,
    is_activated: true,
    is_enabled_maintenance: false,
    is_enabled_vandalism: false,
    rental: null,
    pump: {
      steps_per_second: 300,
      steps_per_ml: 30,
      ml_per_shot: unit.mlPerShot,
      steps_per_second2: 300,
      steps_per_ml2: 30,
      ml_per_shot2: unit.mlPerShot,
      vandalism_max_shots: 10,
      vandalism_interval: 60,
    },
    poweroff_minutes: unit.poweroffMinutes,
    wakeup_minutes: unit.wakeupMinutes,
    time_zone: unit.site.timezone,
  };
}

// ------------------------------------------------------------------ the runner

export type SeasonOptions = {
  fleet: SeasonFleet;
  policy: ServicePolicy;
  crews: CrewSpec[];
  /** Simulated start (UTC ms) and length in days. */
  start: number;
  days: number;
  /** Seeds the units' own streams (battery, signal, SMS) and their customers. */
  seed: number;
  scenarios?: Scenario[];
  /** Default: memoryPortal(fleet). */
  portal?: SeasonPortal;
  /** The simulated clock the runner sets each tick; give the portal's own (a server on it) for the cross-check. */
  clock?: SimulatedClock;
  /** Local hour (crews' zone) at which the policy plans the day (default 6). */
  planHour?: number;
  params?: Partial<ModelParams>;
  /** Called after each simulated day (progress). */
  onDay?: (day: number, report: SeasonReport) => void;
};

export type SeasonReport = {
  policy: string;
  devices: number;
  days: number;
  /** Pump-hours within 08:00-19:00 site time, and those in which the pump was empty at some 5-minute mark. */
  pumpHours: number;
  emptyPumpHours: number;
  emptyShare: number;
  km: number;
  visits: number;
  /** Visits where every pump refilled still held more than half its reservoir. */
  earlyVisits: number;
  earlyVisitShare: number;
  refills: number;
  /** Visits planned but dropped: the van could not get there and back in its hours, or ran out of fluid. */
  droppedVisits: number;
  customers: number;
  missedCustomers: number;
  missedShare: number;
  checkins: number;
  /** Real milliseconds the run took. */
  elapsedMs: number;
};

type Due = { at: number; crew: string; visit: Visit };
type UnitSlot = { unit: SeasonUnit; d: DeviceState; wakeAt: number; lastHour: number[]; emptyHour: number[] };

export async function runSeason(opts: SeasonOptions): Promise<SeasonReport> {
  const t0 = performance.now();
  const { fleet, policy, crews } = opts;
  const clock = opts.clock ?? simulatedClock(opts.start);
  const params: Partial<ModelParams> = { dropoutPerDay: 0, ...opts.params, siteStaffRefills: !!policy.siteStaff };
  const portal =
    opts.portal ?? memoryPortal(fleet, { start: opts.start, ...(params.reservoirMl ? { reservoirMl: params.reservoirMl } : {}) });
  const scenarios = opts.scenarios ?? [];
  const random = seededRandom(opts.seed);
  const end = opts.start + opts.days * DAY;
  const reservoir = params.reservoirMl ?? 1500;
  const byCrew = new Map(crews.map((c) => [c.id, c]));

  const slots: UnitSlot[] = fleet.units.map((unit, i) => {
    const d = createDevice(
      {
        serial: unit.serial,
        leftPumpType: unit.leftPumpType,
        rightPumpType: unit.rightPumpType,
        mlPerShot: unit.mlPerShot,
        timezone: unit.site.timezone,
        batch: unit.batch,
        batch2: unit.batch2,
        initial: { volumeMl: unit.volumeMl, volume2Ml: unit.volume2Ml },
      },
      // Speed 1 and real start = simulated start: the unit stamps its events in simulated time, which is
      // what the portal's clock reads too.
      {
        speed: 1,
        realStart: opts.start,
        simStart: opts.start,
        random,
        params,
        seqStart: 0,
        demandSeed: (opts.seed * 7919 + i) >>> 0,
      },
    );
    d.config.poweroffMinutes = unit.poweroffMinutes;
    d.config.wakeupMinutes = unit.wakeupMinutes;
    // First check-ins spread over one sleep, as a fleet that has been running for a while.
    return {
      unit,
      d,
      wakeAt: opts.start + Math.floor(random() * unit.poweroffMinutes) * MINUTE,
      lastHour: [-1, -1],
      emptyHour: [-1, -1],
    };
  });
  const bySerial = new Map(slots.map((s) => [s.unit.serial, s]));
  const placeOf = (serial: string): Place | undefined => {
    const u = bySerial.get(serial)?.unit;
    return u && { lat: u.lat, lng: u.lng, site: u.site.id };
  };

  const report: SeasonReport = {
    policy: policy.name,
    devices: slots.length,
    days: opts.days,
    pumpHours: 0,
    emptyPumpHours: 0,
    emptyShare: 0,
    km: 0,
    visits: 0,
    earlyVisits: 0,
    earlyVisitShare: 0,
    refills: 0,
    droppedVisits: 0,
    customers: 0,
    missedCustomers: 0,
    missedShare: 0,
    checkins: 0,
    elapsedMs: 0,
  };
  let due: Due[] = [];
  const recalled = new Set<string>();
  const planZone = crews[0]?.timezone ?? fleet.units[0]?.site.timezone ?? 'UTC';
  const planHour = opts.planHour ?? 6;
  let nextPlan = nextLocalHour(opts.start, planZone, planHour);
  let dayIndex = 0;

  for (let t = opts.start + TICK; t <= end; t += TICK) {
    clock.set(t);
    // Scenarios: recalls reach the portal at their instant.
    for (const batch of recalledBatchesAt(scenarios, t)) {
      if (recalled.has(batch)) continue;
      recalled.add(batch);
      await portal.recall(batch, t);
    }
    // 1. Every unit plays the 5 minutes; empty pump-hours in site hours are counted.
    for (const s of slots) {
      if (scenarios.length) applyScenarios(s.d, scenarios, t);
      advance(s.d, t, random);
      const hour = Math.floor((t - 1) / HOUR);
      const local = localTime(s.d, t - 1).hour;
      if (local < 8 || local >= 19) continue;
      for (const [k, p] of s.d.pumps.entries()) {
        if (s.lastHour[k] !== hour) {
          s.lastHour[k] = hour;
          report.pumpHours++;
        }
        if (p.volume <= 0 && s.emptyHour[k] !== hour) {
          s.emptyHour[k] = hour;
          report.emptyPumpHours++;
        }
      }
    }
    // 2. Technicians' visits due by now.
    if (due.length && due[0]!.at <= t) {
      const now = due.filter((v) => v.at <= t);
      due = due.filter((v) => v.at > t);
      for (const v of now) await visit(v);
    }
    // 3. Check-ins due.
    for (const s of slots) {
      if (s.wakeAt > t) continue;
      if (networkDown(scenarios, { serial: s.unit.serial, site: s.unit.site.id }, t) || s.d.dead) {
        s.wakeAt = t + s.unit.poweroffMinutes * MINUTE;
        continue;
      }
      const upload = buildUpload(s.d, t);
      const answer = await portal.checkin(s.unit, upload, t);
      if (answer) {
        settleUpload(s.d, upload, answer);
        report.checkins++;
      }
      const full = upload.counts.levels >= 1000 || upload.counts.dispenses >= 5000;
      s.wakeAt = t + (full ? TICK : Math.max(TICK, nextWake(s.d, t, random).delayMs));
    }
    await portal.tick?.(t);
    // 4. The day's plan.
    if (t >= nextPlan) {
      const view = await portal.view(t);
      const routes = await policy.planDay({ now: new Date(t), fleet: view, crews });
      due = [...due, ...schedule(routes, t)].sort((a, b) => a.at - b.at);
      nextPlan = nextLocalHour(t + HOUR, planZone, planHour);
      opts.onDay?.(++dayIndex, finish());
    }
  }
  return finish();

  /** ETAs along each route from the crew's start; visits the van cannot fit in its hours or fluid are dropped. */
  function schedule(routes: CrewRoute[], planAt: number): Due[] {
    const out: Due[] = [];
    for (const route of routes) {
      const crew = byCrew.get(route.crew);
      if (!crew) throw new Error(`policy ${policy.name} routed an unknown crew ${route.crew}`);
      let carried = crew.capacityMl;
      const day = driveRoute(route, crew, planAt, placeOf, (v) => {
        // Fluid is planned on what the portal shows; the van carries what it had left.
        const s = bySerial.get(v.serial)!;
        const need = v.refills.reduce(
          (n, r) => n + reservoir - Math.max(0, s.d.pumps.find((p) => p.pump === r.pump)?.volume ?? reservoir),
          0,
        );
        if (need > carried) return false;
        carried -= need;
        return true;
      });
      report.droppedVisits += day.dropped;
      report.km += day.km;
      for (const leg of day.legs) out.push({ at: leg.at, crew: crew.id, visit: leg.visit });
    }
    return out;
  }

  async function visit(v: Due) {
    const s = bySerial.get(v.visit.serial)!;
    report.visits++;
    let early = v.visit.refills.length > 0;
    for (const r of v.visit.refills) {
      const pump = s.d.pumps.find((p) => p.pump === r.pump);
      if (!pump) continue;
      if (pump.volume <= reservoir / 2) early = false;
      report.refills++;
      // The fluid goes in now; the unit's counter is reset at its next check-in (reset_ml).
      await portal.resetMl(s.unit.serial, r.pump, v.at);
      if (r.batch) {
        pump.batch = r.batch;
        await portal.changeBatch(s.unit.serial, r.pump, r.batch, v.at);
      }
    }
    if (early) report.earlyVisits++;
  }

  function finish(): SeasonReport {
    let customers = 0;
    let missed = 0;
    for (const s of slots) {
      customers += s.d.totals.customers;
      missed += s.d.totals.missed;
    }
    return {
      ...report,
      km: Math.round(report.km * 10) / 10,
      emptyShare: report.pumpHours ? report.emptyPumpHours / report.pumpHours : 0,
      earlyVisitShare: report.visits ? report.earlyVisits / report.visits : 0,
      customers,
      missedCustomers: missed,
      missedShare: customers ? missed / customers : 0,
      elapsedMs: Math.round(performance.now() - t0),
    };
  }
}

/** The first instant at or after `from` when the local clock of `zone` reads `hour`:00. */
export function nextLocalHour(from: number, zone: string, hour: number): number {
  const offset = zoneOffset(zone, from);
  const localDay = Math.floor((from + offset) / DAY) * DAY;
  let t = localDay + hour * HOUR - offset;
  if (t < from) t += DAY;
  // A daylight-saving change between: take the zone's offset at the answer.
  return t + (offset - zoneOffset(zone, t));
}
