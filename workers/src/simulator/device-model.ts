/**
 * One simulated dispenser, as a small state machine without I/O (simulator.ts does the HTTP and timers).
 *
 * Two clocks. The device lives on a simulated clock that runs `speed` times faster than real time, so a
 * day of dispensing, solar charging and refills passes in minutes. Everything it SENDS is stamped in real
 * wall-clock time, never ahead of now (the gateway refuses future timestamps): the simulated interval
 * since the last check-in is mapped linearly onto the real interval it took, so an event at simulated
 * time s carries the real time realStart + (s - simStart) / speed.
 *
 * A wake-up: `advance` generates the activity of the simulated time elapsed (dispenses by the site's
 * local time of day, readings, SMS) into the device's buffer; `buildUpload` takes the buffered events
 * (within the gateway limits) and the pending ids to acknowledge; after the answer, `settleUpload` drops
 * what was delivered, applies the answered configuration and remembers the pending ids for the NEXT
 * check-in. A failed upload keeps the buffer, so the retry re-sends the same events (idempotent by seq).
 */
import { GATEWAY_LIMITS, type CheckinAnswer, type DeviceConfig, type PumpType } from '@fleet/shared';

export type Random = () => number;

export type SimDeviceSpec = {
  serial: string;
  leftPumpType: PumpType;
  rightPumpType: PumpType;
  /** ml per shot until the first answer brings the pump setting (default 2.464, pump mode 2). */
  mlPerShot?: number;
  /** IANA zone of the site until the first answer brings it (default America/Chicago). */
  timezone?: string;
  /** Batch numbers in the left and right reservoirs, when the caller tracks them (the season runner). */
  batch?: string | null;
  batch2?: string | null;
  /** Where the unit was last seen (the portal's row): the model plays on from it instead of a fresh unit. */
  initial?: { volumeMl?: number | null; volume2Ml?: number | null; batteryPercent?: number | null };
  /** The most charge the battery holds, % (default 100; a failing battery holds less). */
  batteryCapacity?: number;
};

export type ModelParams = {
  /** Reservoir per pump, ml: what a refill restores. */
  reservoirMl: number;
  /** At or below this the site staff notice (the portal's low-level warning) and refill some hours later. */
  lowLevelMl: number;
  /**
   * The model's own refills ("site staff"): on in the demo until simulated crews take over (Service day),
   * off in the season runner, where only a service policy's technicians refill. A refill recorded in the
   * portal (reset_ml) reaches the device either way.
   */
  siteStaffRefills: boolean;
  /** Simulated hours after running low that the site staff refill, within their working hours. */
  refillDelayHours: [number, number];
  /** Mean shots per hour per pump at 13:00 on a weekday with average weather. */
  peakShotsPerHour: number;
  weekendFactor: number;
  /** Simulated minutes between sensor readings (battery, level per pump, data usage). */
  readingEveryMinutes: number;
  /** Mean SMS exchanges (an OUT status and the IN acknowledgement) per simulated day. */
  smsPerDay: number;
  /** Chance per simulated day that a device loses the network for a while. */
  dropoutPerDay: number;
  dropoutHours: [number, number];
  /** Real-time retry backoff after a network error or a 5xx. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Real milliseconds before a device that still holds buffered events checks in again. */
  drainDelayMs: number;
};

export const DEFAULT_PARAMS: ModelParams = {
  reservoirMl: 1500,
  lowLevelMl: 250,
  siteStaffRefills: true,
  // Soon after the portal shows the pump low, as a site's own staff would (within STAFF_HOURS).
  refillDelayHours: [0.5, 4],
  peakShotsPerHour: 8,
  weekendFactor: 1.6,
  readingEveryMinutes: 15,
  smsPerDay: 1.5,
  dropoutPerDay: 0.04,
  dropoutHours: [1, 12],
  retryBaseMs: 500,
  retryMaxMs: 30_000,
  drainDelayMs: 250,
};

export type Dispense = { seq: number; pump: 1 | 2; at: string; ml: number };
export type LevelReading = { pump: 1 | 2; at: string; sensor: boolean; volumeRemain: number };
export type BatteryReading = { at: string; volt: number; percent: number };
export type DataUsageReading = { at: string; kb: number; signalQuality: number };
export type Sms = { seq: number; direction: 'IN' | 'OUT'; message: string; at: string };

export type CheckinBody = {
  sentAt: string;
  dispenses: Dispense[];
  levels: LevelReading[];
  batteries: BatteryReading[];
  dataUsage: DataUsageReading[];
  sms: Sms[];
  signalQuality: number;
  applied: number[];
};

type PumpState = {
  pump: 1 | 2;
  fluid: PumpType;
  mlPerShot: number;
  volume: number;
  /** The device's own event number for this pump: strictly increasing, never reused. */
  seq: number;
  /** Simulated time at which someone comes to refill, once the level is low. */
  refillAt: number | null;
  /** The batch in the reservoir (its number), when known: a technician's batch change sets it. */
  batch: string | null;
  /** Refills applied, by whoever (site staff, a reset_ml from the portal, a technician in process). */
  refills: number;
};

export type DeviceState = {
  serial: string;
  speed: number;
  realStart: number;
  simStart: number;
  params: ModelParams;
  /** Simulated time up to which activity was generated. */
  simCursor: number;
  nextReadingAt: number;
  timezone: string;
  pumps: PumpState[];
  battery: number;
  /** The most charge the battery holds, % (a failing battery: scenarios.ts). */
  batteryCapacity: number;
  /** How well this unit's panel charges (0.6..1.3). */
  panel: number;
  /** Browned out: no dispensing, readings or check-ins until the sun brings it back above 5 %. */
  dead: boolean;
  signal: number;
  signalBase: number;
  weather: { day: number; factor: number };
  /**
   * The seed of this unit's customers: arrivals per pump and hour come from a generator keyed by
   * (demandSeed, serial, pump, hour), never from the shared stream, so the same seed brings the same
   * customers whatever happened to the pumps (see hourlyArrivals).
   */
  demandSeed: number;
  /** The arrivals of the hour being played, per pump (index pump - 1). */
  arrivals: { hour: number; times: number[] }[];
  smsSeq: number;
  shotsSinceReading: number;
  config: { paused: boolean; activated: boolean; poweroffMinutes: number; wakeupMinutes: number; rental: DeviceConfig['rental'] };
  buffer: {
    dispenses: Dispense[];
    levels: LevelReading[];
    batteries: BatteryReading[];
    dataUsage: DataUsageReading[];
    sms: Sms[];
  };
  /** Pending ids answered by the server, to acknowledge in the next check-in. */
  toAck: number[];
  /** Ids already acknowledged in a delivered check-in (recent ones), so none is acknowledged twice. */
  acked: number[];
  /** Simulated time until which the device has no network. */
  offlineUntil: number | null;
  /** Last real timestamp used per reading stream: readings are keyed by time, so each one is unique. */
  stamps: { battery: number; data: number; level1: number; level2: number };
  tz: { from: number; to: number; offset: number } | null;
  /** `customers`: arrivals at a working or idle pump; `missed`: those that found it empty, paused, dead or outside the rental. */
  totals: { dispenses: number; readings: number; sms: number; customers: number; missed: number };
};

export type Upload = {
  body: CheckinBody;
  counts: { dispenses: number; levels: number; batteries: number; dataUsage: number; sms: number };
  applied: number[];
};

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const STEP = 5 * MINUTE;
/**
 * When a site's own staff are about, local hours: from before opening until after closing (customers
 * come 08:00-19:00), so a pump that runs low in the afternoon is refilled the same evening and the demo
 * holds a steady count of low pumps (issue 47) rather than piling them up overnight.
 */
const STAFF_HOURS = [7, 22] as const;

/** A small seeded generator (mulberry32) for reproducible runs and tests. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const between = (random: Random, [lo, hi]: [number, number]) => lo + (hi - lo) * random();

function poisson(lambda: number, random: Random): number {
  if (lambda <= 0) return 0;
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gaussian(random)));
  const l = Math.exp(-lambda);
  let k = 0;
  let p = random();
  while (p > l) {
    k++;
    p *= random();
  }
  return k;
}
function gaussian(random: Random): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function createDevice(
  spec: SimDeviceSpec,
  opts: {
    speed: number;
    realStart: number;
    simStart?: number;
    random: Random;
    params?: Partial<ModelParams>;
    seqStart?: number;
    demandSeed?: number;
  },
): DeviceState {
  if (!(opts.speed > 0)) throw new Error('speed must be positive');
  const params = { ...DEFAULT_PARAMS, ...opts.params };
  const random = opts.random;
  const simStart = opts.simStart ?? opts.realStart;
  const shot = spec.mlPerShot ?? 2.464;
  const pump = (n: 1 | 2, fluid: PumpType): PumpState => ({
    pump: n,
    fluid,
    mlPerShot: shot,
    volume: 0,
    seq: opts.seqStart ?? 0,
    refillAt: null,
    batch: (n === 1 ? spec.batch : spec.batch2) ?? null,
    refills: 0,
  });
  const pumps: PumpState[] = [pump(1, spec.leftPumpType)];
  if (spec.rightPumpType !== 'Unspecified') pumps.push(pump(2, spec.rightPumpType));
  for (const p of pumps) p.volume = round(params.reservoirMl * (0.35 + 0.65 * random()), 1);
  const given = [spec.initial?.volumeMl, spec.initial?.volume2Ml];
  for (const p of pumps) {
    const v = given[p.pump - 1];
    if (v != null && Number.isFinite(v)) p.volume = round(clamp(v, 0, params.reservoirMl), 1);
  }
  const capacity = clamp(spec.batteryCapacity ?? 100, 1, 100);
  const battery = spec.initial?.batteryPercent;
  const signalBase = 35 + Math.round(random() * 50);
  const readingMs = params.readingEveryMinutes * MINUTE;
  return {
    serial: spec.serial,
    speed: opts.speed,
    realStart: opts.realStart,
    simStart,
    params,
    simCursor: simStart,
    // Readings fall on multiples of the reading interval of the simulated clock.
    nextReadingAt: Math.ceil(simStart / readingMs) * readingMs,
    timezone: validZone(spec.timezone) ?? 'America/Chicago',
    pumps,
    battery:
      battery != null && Number.isFinite(battery)
        ? clamp(battery, 0, capacity)
        : round(Math.min(capacity, 55 + random() * 45), 1),
    batteryCapacity: capacity,
    // Panels sized for the site: a sunny day more than makes up a day and night's drain, a run of
    // cloudy days does not (the battery then dips, and recovers in the sun).
    panel: 0.85 + random() * 0.45,
    dead: false,
    signal: signalBase,
    signalBase,
    weather: { day: Number.NaN, factor: 1 },
    demandSeed: (opts.demandSeed ?? Math.floor(random() * 2 ** 32)) >>> 0,
    arrivals: pumps.map(() => ({ hour: Number.NaN, times: [] })),
    smsSeq: opts.seqStart ?? 0,
    shotsSinceReading: 0,
    config: { paused: false, activated: true, poweroffMinutes: 30, wakeupMinutes: 5, rental: null },
    buffer: { dispenses: [], levels: [], batteries: [], dataUsage: [], sms: [] },
    toAck: [],
    acked: [],
    offlineUntil: null,
    stamps: { battery: 0, data: 0, level1: 0, level2: 0 },
    tz: null,
    totals: { dispenses: 0, readings: 0, sms: 0, customers: 0, missed: 0 },
  };
}

// ------------------------------------------------------------------ demand from a seed

/** FNV-1a of a string (the serial's part of a demand key). */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
/** Mixes integers into one 32-bit key (murmur3's finalizer after each): neighbouring keys share nothing. */
function mixKey(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const x of parts) {
    h = Math.imul(h ^ (x >>> 0) ^ Math.floor(x / 2 ** 32), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}
/**
 * A generator for one (seed, serial, stream, index): counter-based, so what one pump-hour draws never
 * shifts another's numbers. Stream 1 and 2 are the pumps (index: the UTC hour since the epoch), stream 0
 * the weather (index: the local day).
 */
export const keyedRandom = (seed: number, serial: string, stream: number, index: number): Random =>
  seededRandom(mixKey(seed, hashString(serial), stream, index));

/**
 * The day's weather factor at the unit (0.25..1.75): each day leans on the day before (AR(1) around 1),
 * every day's draw keyed by the day, so it depends on the date alone. Ten days of memory are plenty at 0.7.
 */
export function weatherOn(seed: number, serial: string, day: number): number {
  let f = 1;
  for (let k = day - 10; k <= day; k++)
    f = clamp(1 + 0.7 * (f - 1) + (keyedRandom(seed, serial, 0, k)() - 0.5) * 0.6, 0.25, 1.75);
  return f;
}

/**
 * The customers who come to one pump in one UTC hour (`hour`: hours since the epoch): their arrival
 * instants, sorted. A function of the demand seed, the serial, the pump, the hour, the site's zone and
 * the fluid only: whether the pump is full, empty, paused or refilled changes who is served, never who
 * comes.
 */
export function hourlyArrivals(d: DeviceState, pump: { pump: 1 | 2; fluid: PumpType }, hour: number): number[] {
  const start = hour * HOUR;
  const lt = localTime(d, start + HOUR / 2);
  const rate = dispenseRate(
    d.params,
    lt,
    d.weather.day === lt.day ? d.weather.factor : weatherOn(d.demandSeed, d.serial, lt.day),
    pump.fluid,
  );
  const random = keyedRandom(d.demandSeed, d.serial, pump.pump, hour);
  const n = poisson(rate, random);
  return Array.from({ length: n }, () => start + random() * HOUR).sort((a, b) => a - b);
}

/** The arrivals at a pump within [t0, t1) (both inside one or more hours played in order). */
function arrivalsBetween(d: DeviceState, index: number, t0: number, t1: number): number[] {
  const pump = d.pumps[index]!;
  const cache = d.arrivals[index]!;
  const out: number[] = [];
  for (let h = Math.floor(t0 / HOUR); h * HOUR < t1; h++) {
    if (cache.hour !== h) {
      cache.hour = h;
      cache.times = hourlyArrivals(d, pump, h);
    }
    for (const t of cache.times) if (t >= t0 && t < t1) out.push(t);
  }
  return out;
}

/** The simulated time at a real instant, and back (floored, so a mapped event is never after `real`). */
export const simAt = (d: DeviceState, real: number) => d.simStart + (real - d.realStart) * d.speed;
export const realAt = (d: DeviceState, sim: number) => Math.floor(d.realStart + (sim - d.simStart) / d.speed);

// ------------------------------------------------------------------ local time of the site

const formats = new Map<string, Intl.DateTimeFormat | null>();
function formatFor(zone: string): Intl.DateTimeFormat | null {
  if (!formats.has(zone)) {
    try {
      formats.set(
        zone,
        new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
        }),
      );
    } catch {
      formats.set(zone, null);
    }
  }
  return formats.get(zone)!;
}
function validZone(zone: string | null | undefined): string | null {
  return zone && formatFor(zone) ? zone : null;
}
/** The zone's offset from UTC at instant t, in ms. */
export function zoneOffset(zone: string, t: number): number {
  const f = formatFor(zone);
  if (!f) return 0;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(t))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return asUtc - (t - (((t % 1000) + 1000) % 1000));
}

export type LocalTime = { hour: number; weekday: number; day: number };
/** The site's local time at simulated instant t (offset cached per UTC hour: zones change on hour boundaries). */
export function localTime(d: DeviceState, t: number): LocalTime {
  if (!d.tz || t < d.tz.from || t >= d.tz.to) {
    const from = Math.floor(t / HOUR) * HOUR;
    d.tz = { from, to: from + HOUR, offset: zoneOffset(d.timezone, from) };
  }
  const local = t + d.tz.offset;
  const day = Math.floor(local / DAY);
  // 1970-01-01 was a Thursday; weekday 0 is Sunday.
  return { hour: (local - day * DAY) / HOUR, weekday: (((day + 4) % 7) + 7) % 7, day };
}
/** 'YYYY-MM-DD' and 'HH:mm' of a local time (only rentals need them). */
function localStrings(lt: LocalTime): { date: string; hhmm: string } {
  const h = Math.floor(lt.hour);
  const m = Math.floor((lt.hour - h) * 60);
  return {
    date: new Date(lt.day * DAY).toISOString().slice(0, 10),
    hhmm: `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
  };
}

/** Share of the peak dispensing rate by local hour: none at night, busiest around 13:00. */
export function dayShape(hour: number): number {
  if (hour < 8 || hour >= 19) return 0;
  return Math.max(0, 1 - Math.abs(hour - 13) / 6);
}
/** Sunlight on the panel by local hour (0..1). */
export function sunShape(hour: number): number {
  return hour > 6.5 && hour < 19.5 ? Math.sin((Math.PI * (hour - 6.5)) / 13) : 0;
}

/** Mean shots per hour of one pump at local time `lt` under the day's weather factor. */
export function dispenseRate(params: ModelParams, lt: LocalTime, weather: number, fluid: PumpType): number {
  const weekend = lt.weekday === 0 || lt.weekday === 6 ? params.weekendFactor : 1;
  const fluidFactor = fluid === 'Sanitizer' ? 0.6 : 1;
  return params.peakShotsPerHour * dayShape(lt.hour) * weekend * weather * fluidFactor;
}

/** A pump's usual millilitres an hour at simulated time `t` (average weather): what weeks of its history would show. */
export function usualMlPerHour(d: DeviceState, pump: 1 | 2, t: number): number {
  const p = d.pumps.find((x) => x.pump === pump);
  return p ? dispenseRate(d.params, localTime(d, t), 1, p.fluid) * p.mlPerShot : 0;
}

function rentalAllows(d: DeviceState, pump: 1 | 2, lt: LocalTime): boolean {
  const r = d.config.rental;
  if (!r) return true;
  const { date, hhmm } = localStrings(lt);
  if (date < r.start_date || date > r.end_date) return false;
  const [from, to] = pump === 1 ? [r.start_time, r.end_time] : [r.pump_2_start_time, r.pump_2_end_time];
  if (from && hhmm < from) return false;
  if (to && hhmm >= to) return false;
  return true;
}

/** A real timestamp for a reading stream, unique per stream (readings are keyed by device and time). */
function stamp(d: DeviceState, stream: keyof DeviceState['stamps'], sim: number): string {
  const real = Math.max(realAt(d, sim), d.stamps[stream] + 1);
  d.stamps[stream] = real;
  return new Date(real).toISOString();
}

/**
 * Generates the device's activity from its cursor up to the simulated time of real instant `realNow`,
 * into its buffer. Answers how many data points were generated.
 */
export function advance(d: DeviceState, realNow: number, random: Random): number {
  const target = simAt(d, realNow);
  const p = d.params;
  let made = 0;
  while (d.simCursor < target) {
    const t0 = d.simCursor;
    const t1 = Math.min(t0 + STEP, target, d.nextReadingAt > t0 ? d.nextReadingAt : t0 + STEP);
    const dtH = (t1 - t0) / HOUR;
    const lt = localTime(d, t0);
    if (d.weather.day !== lt.day) d.weather = { day: lt.day, factor: weatherOn(d.demandSeed, d.serial, lt.day) };

    // Battery: a solar panel by day (less under clouds), a small idle drain, a little per shot.
    d.battery = clamp(
      d.battery + sunShape(lt.hour) * 2.6 * d.panel * clamp(0.3 + 0.7 * d.weather.factor, 0.2, 1.3) * dtH - 0.55 * dtH,
      0,
      d.batteryCapacity,
    );
    if (d.dead && d.battery >= 5) d.dead = false;
    if (!d.dead && d.battery <= 0.5) d.dead = true;

    const working = !d.dead && !d.config.paused && d.config.activated;
    for (const [index, pump] of d.pumps.entries()) {
      const times = arrivalsBetween(d, index, t0, t1);
      d.totals.customers += times.length;
      const open = working && rentalAllows(d, pump.pump, lt);
      for (const t of times) {
        if (!open || pump.volume <= 0) {
          d.totals.missed++;
          continue;
        }
        pump.volume = round(Math.max(0, pump.volume - pump.mlPerShot), 3);
        pump.seq++;
        d.buffer.dispenses.push({ seq: pump.seq, pump: pump.pump, at: new Date(realAt(d, t)).toISOString(), ml: pump.mlPerShot });
        d.battery = Math.max(0, d.battery - 0.03);
        d.shotsSinceReading++;
        d.totals.dispenses++;
        made++;
      }
      // Site staff notice a low reservoir and come back to refill it some hours later, in the daytime.
      if (p.siteStaffRefills) {
        if (pump.volume <= p.lowLevelMl && pump.refillAt === null)
          pump.refillAt = t1 + between(random, p.refillDelayHours) * HOUR;
        if (pump.refillAt !== null && t1 >= pump.refillAt && lt.hour >= STAFF_HOURS[0] && lt.hour < STAFF_HOURS[1])
          refillPump(d, pump.pump);
      }
    }

    if (!d.dead && random() < (p.smsPerDay * dtH) / 24) {
      const at = t0 + random() * (t1 - t0);
      d.buffer.sms.push({
        seq: ++d.smsSeq,
        direction: 'OUT',
        message: `STATUS ${d.serial} BAT=${Math.round(d.battery)}% SQ=${d.signal} L1=${Math.round(d.pumps[0]!.volume)}ml`,
        at: new Date(realAt(d, at)).toISOString(),
      });
      const reply = ['ACK STATUS', 'CONFIG OK', 'ACK WAKEUP 06:00'][Math.floor(random() * 3)]!;
      d.buffer.sms.push({
        seq: ++d.smsSeq,
        direction: 'IN',
        message: reply,
        at: new Date(realAt(d, Math.min(at + 2 * MINUTE, t1))).toISOString(),
      });
      d.totals.sms += 2;
      made += 2;
    }

    if (t1 >= d.nextReadingAt) {
      if (!d.dead) made += takeReadings(d, d.nextReadingAt, lt, random);
      d.nextReadingAt += p.readingEveryMinutes * MINUTE;
    }
    d.simCursor = t1;
  }
  return made;
}

function takeReadings(d: DeviceState, t: number, lt: LocalTime, random: Random): number {
  // Signal quality wanders around the unit's own level, within 20..95.
  d.signal = Math.round(clamp(d.signal + (random() - 0.5) * 12 + (d.signalBase - d.signal) * 0.15, 20, 95));
  const percent = round(d.battery, 1);
  d.buffer.batteries.push({ at: stamp(d, 'battery', t), volt: round(3.3 + (percent / 100) * 0.9, 2), percent });
  for (const pump of d.pumps) {
    d.buffer.levels.push({
      pump: pump.pump,
      at: stamp(d, pump.pump === 1 ? 'level1' : 'level2', t),
      sensor: pump.volume > 0,
      volumeRemain: round(pump.volume, 1),
    });
  }
  const awake = lt.hour >= 8 && lt.hour < 19;
  const kb = ((awake ? 30 : 6) + random() * 10) * (d.params.readingEveryMinutes / 15) + 1.5 * d.shotsSinceReading;
  d.buffer.dataUsage.push({ at: stamp(d, 'data', t), kb: round(kb, 1), signalQuality: d.signal });
  d.shotsSinceReading = 0;
  const n = 2 + d.pumps.length;
  d.totals.readings += n;
  return n;
}

/** The next upload: buffered events up to the gateway limits, and the pending ids to acknowledge. */
export function buildUpload(d: DeviceState, realNow: number): Upload {
  const b = d.buffer;
  const body: CheckinBody = {
    sentAt: new Date(realNow).toISOString(),
    dispenses: b.dispenses.slice(0, GATEWAY_LIMITS.dispenses),
    levels: b.levels.slice(0, GATEWAY_LIMITS.readings),
    batteries: b.batteries.slice(0, GATEWAY_LIMITS.readings),
    dataUsage: b.dataUsage.slice(0, GATEWAY_LIMITS.readings),
    sms: b.sms.slice(0, GATEWAY_LIMITS.sms),
    signalQuality: d.signal,
    applied: d.toAck.slice(0, 100),
  };
  return {
    body,
    counts: {
      dispenses: body.dispenses.length,
      levels: body.levels.length,
      batteries: body.batteries.length,
      dataUsage: body.dataUsage.length,
      sms: body.sms.length,
    },
    applied: body.applied,
  };
}

export const uploadSize = (u: Upload) =>
  u.counts.dispenses + u.counts.levels + u.counts.batteries + u.counts.dataUsage + u.counts.sms;
export const buffered = (d: DeviceState) =>
  d.buffer.dispenses.length +
  d.buffer.levels.length +
  d.buffer.batteries.length +
  d.buffer.dataUsage.length +
  d.buffer.sms.length;

/** Drops what an upload carried from the buffer (delivered, or refused for good). */
export function dropSent(d: DeviceState, u: Upload) {
  d.buffer.dispenses.splice(0, u.counts.dispenses);
  d.buffer.levels.splice(0, u.counts.levels);
  d.buffer.batteries.splice(0, u.counts.batteries);
  d.buffer.dataUsage.splice(0, u.counts.dataUsage);
  d.buffer.sms.splice(0, u.counts.sms);
}

/** The upload was stored: drop it from the buffer, mark its acknowledgements done, take the answer. */
export function settleUpload(d: DeviceState, u: Upload, answer: Pick<CheckinAnswer, 'config' | 'pending'>) {
  dropSent(d, u);
  if (u.applied.length) {
    d.toAck = d.toAck.filter((id) => !u.applied.includes(id));
    d.acked.push(...u.applied);
    if (d.acked.length > 200) d.acked.splice(0, d.acked.length - 200);
  }
  applyAnswer(d, answer);
}

/** Applies the configuration answered and queues each new pending id for the next check-in. */
export function applyAnswer(d: DeviceState, answer: Pick<CheckinAnswer, 'config' | 'pending'>) {
  const c = answer.config;
  if (c) {
    d.config.paused = !!c.is_pause;
    d.config.activated = c.is_activated !== false;
    d.config.rental = c.rental ?? null;
    if (c.poweroff_minutes > 0) d.config.poweroffMinutes = c.poweroff_minutes;
    if (c.wakeup_minutes > 0) d.config.wakeupMinutes = c.wakeup_minutes;
    const zone = validZone(c.time_zone);
    if (zone && zone !== d.timezone) {
      d.timezone = zone;
      d.tz = null;
    }
    const p1 = d.pumps[0];
    const p2 = d.pumps[1];
    if (p1 && (c.pump?.ml_per_shot ?? 0) > 0) p1.mlPerShot = c.pump.ml_per_shot;
    if (p2 && (c.pump?.ml_per_shot2 ?? 0) > 0) p2.mlPerShot = c.pump.ml_per_shot2;
  }
  for (const p of answer.pending ?? []) {
    if (d.acked.includes(p.id) || d.toAck.includes(p.id)) continue;
    d.toAck.push(p.id);
    applyPending(d, p);
  }
}

/**
 * What a pending change does to the unit itself, once (the first answer that carries its id). Most
 * settings arrive in the answered configuration (pause, activation, pump setting, timers, rental); a
 * refill does not: `resetMl` in the portal queues `reset_ml_<pump>` with the reservoir's volume, and the
 * device sets that pump's remaining volume to it, as a real unit resets its counter after the refill
 * the technician made. A batch change travels the same way: the technician swaps the reservoir (a
 * refill, reset_ml) and the portal's batch field changes; the device itself never learns batch numbers,
 * so the model's `batch` label only changes when an in-process technician passes one (`refillPump`).
 */
function applyPending(d: DeviceState, change: { setting: string; desired: unknown }) {
  const m = /^reset_ml_([12])$/.exec(change.setting);
  if (!m) return;
  const desired = (change.desired ?? {}) as { volume_remain?: unknown };
  const volume =
    typeof desired.volume_remain === 'number' && desired.volume_remain > 0 ? desired.volume_remain : d.params.reservoirMl;
  refillPump(d, Number(m[1]) as 1 | 2, { volumeMl: volume });
}

/** A pump refilled (to the reservoir, or `volumeMl`), optionally with fluid of another batch. */
export function refillPump(d: DeviceState, pumpNumber: 1 | 2, opts: { volumeMl?: number; batch?: string | null } = {}): boolean {
  const pump = d.pumps.find((p) => p.pump === pumpNumber);
  if (!pump) return false;
  pump.volume = round(opts.volumeMl ?? d.params.reservoirMl, 1);
  pump.refillAt = null;
  pump.refills++;
  if (opts.batch !== undefined) pump.batch = opts.batch;
  return true;
}

/**
 * Real milliseconds until the next wake-up: the configured sleep scaled by speed; or longer when the
 * device drops off the network for a while (it keeps buffering, and uploads it all when back); or soon
 * when the upload just delivered was full and more is buffered (`backlog`).
 */
export function nextWake(
  d: DeviceState,
  realNow: number,
  random: Random,
  opts: { backlog?: boolean } = {},
): { delayMs: number; offline: boolean } {
  const p = d.params;
  if (d.offlineUntil !== null && simAt(d, realNow) >= d.offlineUntil) d.offlineUntil = null;
  if (opts.backlog && buffered(d) > 0) return { delayMs: p.drainDelayMs, offline: false };
  const sleepSim = d.config.poweroffMinutes * MINUTE;
  if (random() < p.dropoutPerDay * (sleepSim / DAY)) {
    const away = between(random, p.dropoutHours) * HOUR;
    d.offlineUntil = simAt(d, realNow) + away;
    return { delayMs: Math.max(1, away / d.speed), offline: true };
  }
  return { delayMs: Math.max(1, (sleepSim / d.speed) * (0.95 + 0.1 * random())), offline: false };
}

/** Real backoff before retry `attempt` (1, 2, ...) after a network error or a 5xx, with jitter. */
export function retryDelay(params: ModelParams, attempt: number, random: Random): number {
  return Math.min(params.retryMaxMs, params.retryBaseMs * 2 ** Math.min(attempt - 1, 16)) * (0.5 + random());
}
