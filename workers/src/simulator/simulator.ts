/**
 * The fleet simulator: thousands of simulated dispensers (device-model.ts) checking in to the device
 * gateway from one process. Each device has one timer for its next wake-up; a device that wakes joins a
 * queue, and at most `maxInFlight` check-ins are on the wire at once over kept-alive connections.
 *
 * Per check-in: generate the activity since the last one, POST /device/v1/checkin, then
 * - 200: drop what was delivered, apply the configuration, acknowledge the pending ids next time, sleep
 *   `poweroff_minutes` (scaled by speed);
 * - network error, timeout, 5xx or 429: keep the buffer and retry with backoff (the same events again:
 *   the gateway is idempotent by seq and timestamp);
 * - 401: that device stops (its secret was rotated elsewhere), logged;
 * - other 4xx: the upload can never succeed, so it is dropped (logged) and the device carries on.
 */
import http from 'node:http';
import https from 'node:https';
import { LOW_BATTERY_PERCENT, LOW_FLUID_THRESHOLD, type CheckinAnswer, type PumpType } from '@fleet/shared';
import {
  advance,
  buildUpload,
  createDevice,
  DEFAULT_PARAMS,
  dropSent,
  nextWake,
  retryDelay,
  settleUpload,
  uploadSize,
  type CheckinBody,
  type DeviceState,
  type ModelParams,
  type Random,
  type SimDeviceSpec,
  simAt,
  usualMlPerHour,
} from './device-model.ts';
import { startDemoCrews } from './demo-crews.ts';
import { DispenseHistory } from './dispense-history.ts';
import { plannerPolicy } from './planner-policy.ts';
import { defaultCrews, type CrewSpec } from './season.ts';

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export type SimulatedDevice = {
  serial: string;
  secret: string;
  leftPumpType: PumpType;
  rightPumpType: PumpType;
  mlPerShot?: number;
  timezone?: string;
  /** The state the portal last saw (device-model.ts SimDeviceSpec). */
  initial?: SimDeviceSpec['initial'];
  batteryCapacity?: number;
};

export type SimulatorOptions = {
  baseUrl: string;
  devices: SimulatedDevice[];
  /** Simulated seconds per real second. */
  speed: number;
  /** Default: node:http(s) with a kept-alive agent of `maxInFlight` sockets. */
  fetchImpl?: FetchLike;
  log?: (msg: string) => void;
  random?: Random;
  /** Check-ins on the wire at once (default 64). */
  maxInFlight?: number;
  /** Where the simulated clock starts (default now); e.g. a morning, to see a day of dispensing. */
  simStart?: Date | number;
  params?: Partial<ModelParams>;
  /** A check-in with no answer after this is a network error (default 30 s). */
  requestTimeoutMs?: number;
  /** Per-pump and SMS sequence numbers start here (default Date.now(): a restarted run never reuses one). */
  seqStart?: number;
  /** After each stored check-in: what the unit delivered (the demo's crews learn the units' dispensing from it). */
  onDelivered?: (serial: string, body: CheckinBody, state: DeviceState) => void;
};

export type SimulatorStats = {
  devices: number;
  /** Devices stopped after a 401. */
  stopped: number;
  /** Devices currently off the network (dropout) or browned out. */
  offline: number;
  dead: number;
  checkins: number;
  /** Network errors, timeouts, 5xx and 429 (each retried). */
  failures: number;
  /** Uploads refused with a 4xx other than 401 (dropped). */
  rejected: number;
  unauthorized: number;
  /** Data points (a dispense, a battery, level or data-usage reading, an SMS) sent and newly stored. */
  sent: number;
  stored: number;
  duplicates: number;
  /** Pending changes acknowledged in delivered check-ins. */
  acknowledged: number;
  inFlight: number;
  queued: number;
  /** Check-in latency over the check-ins completed since the previous stats() call. */
  latency: { count: number; p50: number; p99: number; max: number };
};

export type Simulator = {
  stop(): Promise<void>;
  stats(): SimulatorStats;
  /** The simulated state of one device (tests, debugging). */
  device(serial: string): DeviceState | undefined;
  /** The simulated time at a real instant (default now), and the real instant of a simulated time. */
  simTime(real?: number): number;
  realTime(sim: number): number;
};

type Slot = {
  spec: SimulatedDevice;
  auth: string;
  state: DeviceState;
  timer: NodeJS.Timeout | null;
  attempt: number;
  stopped: boolean;
  offline: boolean;
};

export function startSimulator(opts: SimulatorOptions): Simulator {
  const random = opts.random ?? Math.random;
  const log = opts.log ?? (() => undefined);
  const maxInFlight = Math.max(1, opts.maxInFlight ?? 64);
  const realStart = Date.now();
  const simStart = opts.simStart === undefined ? realStart : +opts.simStart;
  const seqStart = opts.seqStart ?? realStart;
  const params = { ...DEFAULT_PARAMS, ...opts.params };
  const url = `${opts.baseUrl.replace(/\/$/, '')}/device/v1/checkin`;
  const agentOwned = !opts.fetchImpl;
  const client = opts.fetchImpl ? null : httpClient(url, maxInFlight, opts.requestTimeoutMs ?? 30_000);
  const send: FetchLike = opts.fetchImpl ?? client!.fetch;

  const slots: Slot[] = opts.devices.map((spec) => ({
    spec,
    auth: `Basic ${Buffer.from(`${spec.serial}:${spec.secret}`).toString('base64')}`,
    state: createDevice(spec, { speed: opts.speed, realStart, simStart, random, params, seqStart }),
    timer: null,
    attempt: 0,
    stopped: false,
    offline: false,
  }));
  const bySerial = new Map(slots.map((s) => [s.spec.serial, s]));

  const counters = { checkins: 0, failures: 0, rejected: 0, unauthorized: 0, sent: 0, stored: 0, duplicates: 0, acknowledged: 0 };
  let latencies: number[] = [];
  let latencySeen = 0;
  const recordLatency = (ms: number) => {
    // A bounded reservoir per stats window keeps memory flat at any rate.
    latencySeen++;
    if (latencies.length < 50_000) latencies.push(ms);
    else {
      const j = Math.floor(random() * latencySeen);
      if (j < latencies.length) latencies[j] = ms;
    }
  };

  // A FIFO of devices that woke up and wait for a free slot.
  let queue: Slot[] = [];
  let head = 0;
  let inFlight = 0;
  let stopping = false;
  const running = new Set<Promise<void>>();

  // Errors are logged at most once per 5 s per kind, with how many happened meanwhile.
  const lastLog = new Map<string, { at: number; suppressed: number }>();
  const warn = (kind: string, msg: string) => {
    const now = Date.now();
    const e = lastLog.get(kind);
    if (e && now - e.at < 5_000) {
      e.suppressed++;
      return;
    }
    log(e?.suppressed ? `${msg} (+${e.suppressed} more since)` : msg);
    lastLog.set(kind, { at: now, suppressed: 0 });
  };

  function schedule(slot: Slot, delayMs: number) {
    if (stopping || slot.stopped) return;
    slot.timer = setTimeout(
      () => {
        slot.timer = null;
        queue.push(slot);
        dispatch();
      },
      Math.max(0, delayMs),
    );
  }

  function dispatch() {
    while (!stopping && inFlight < maxInFlight && head < queue.length) {
      const slot = queue[head++]!;
      if (head > 1024 && head * 2 > queue.length) {
        queue = queue.slice(head);
        head = 0;
      }
      const p = wake(slot).catch((err) => warn('internal', `simulator: ${slot.spec.serial}: ${(err as Error).message}`));
      running.add(p);
      void p.finally(() => running.delete(p));
    }
  }

  async function wake(slot: Slot) {
    const d = slot.state;
    const now = Date.now();
    advance(d, now, random);
    if (d.dead) {
      // Browned out: no radio. The sun charges it meanwhile; try again at the next wake-up.
      schedule(slot, nextWake(d, now, random).delayMs);
      return;
    }
    const upload = buildUpload(d, now);
    const body = JSON.stringify(upload.body);
    inFlight++;
    const t0 = performance.now();
    let status: number;
    let text: string;
    try {
      const res = await send(url, {
        method: 'POST',
        headers: { authorization: slot.auth, 'content-type': 'application/json' },
        body,
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      status = 0;
      text = (err as Error).message;
    } finally {
      inFlight--;
    }
    if (status !== 0) recordLatency(performance.now() - t0);
    const size = uploadSize(upload);
    counters.sent += size;

    if (status === 200) {
      const answer = JSON.parse(text) as CheckinAnswer;
      settleUpload(d, upload, answer);
      counters.checkins++;
      opts.onDelivered?.(slot.spec.serial, upload.body, d);
      const a = answer.accepted;
      counters.stored += a.dispenses + a.levels + a.batteries + a.dataUsage + a.sms;
      counters.duplicates += a.duplicates;
      counters.acknowledged += upload.applied.length;
      slot.attempt = 0;
      const next = nextWake(d, Date.now(), random, { backlog: isFull(upload) });
      slot.offline = next.offline;
      schedule(slot, next.delayMs);
    } else if (status === 401) {
      counters.unauthorized++;
      slot.stopped = true;
      log(`simulator: ${slot.spec.serial} answered 401 (wrong or rotated secret): this device stops`);
    } else if (status === 0 || status >= 500 || status === 429 || status === 408) {
      counters.failures++;
      slot.attempt++;
      warn(
        `retry${status}`,
        `simulator: ${slot.spec.serial} check-in failed (${status ? `HTTP ${status}` : text}); retrying with backoff (attempt ${slot.attempt})`,
      );
      schedule(slot, retryDelay(d.params, slot.attempt, random));
    } else {
      counters.rejected++;
      dropSent(d, upload);
      warn(
        `rejected${status}`,
        `simulator: ${slot.spec.serial} upload refused with HTTP ${status}, dropped: ${text.slice(0, 300)}`,
      );
      slot.attempt = 0;
      schedule(slot, nextWake(d, Date.now(), random).delayMs);
    }
    dispatch();
  }

  // First wake-ups spread over one sleep interval, so the fleet does not check in all at once.
  for (const slot of slots) schedule(slot, random() * ((slot.state.config.poweroffMinutes * 60_000) / opts.speed));

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      for (const slot of slots) if (slot.timer) clearTimeout(slot.timer);
      queue = [];
      head = 0;
      const deadline = Date.now() + 15_000;
      while (running.size && Date.now() < deadline) await Promise.race([...running, new Promise((r) => setTimeout(r, 100))]);
      if (agentOwned) client!.close();
    },
    stats() {
      const sorted = latencies.sort((a, b) => a - b);
      const q = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0);
      const latency = { count: latencySeen, p50: q(0.5), p99: q(0.99), max: sorted.length ? sorted[sorted.length - 1]! : 0 };
      latencies = [];
      latencySeen = 0;
      let stopped = 0;
      let offline = 0;
      let dead = 0;
      for (const s of slots) {
        if (s.stopped) stopped++;
        else if (s.state.dead) dead++;
        else if (s.offline) offline++;
      }
      return { devices: slots.length, stopped, offline, dead, ...counters, inFlight, queued: queue.length - head, latency };
    },
    device: (serial) => bySerial.get(serial)?.state,
    simTime: (real = Date.now()) => simStart + (real - realStart) * opts.speed,
    realTime: (sim) => realStart + (sim - simStart) / opts.speed,
  };
}

const isFull = (u: { counts: { dispenses: number; levels: number; batteries: number; dataUsage: number; sms: number } }) =>
  u.counts.dispenses >= 5000 ||
  u.counts.levels >= 1000 ||
  u.counts.batteries >= 1000 ||
  u.counts.dataUsage >= 1000 ||
  u.counts.sms >= 500;

/** A minimal fetch over node:http(s) with one kept-alive agent: cheaper per request than undici's fetch. */
function httpClient(target: string, maxSockets: number, timeoutMs: number) {
  const u = new URL(target);
  const secure = u.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets }) : new http.Agent({ keepAlive: true, maxSockets });
  const request = secure ? https.request : http.request;
  const fetch: FetchLike = (url, init) =>
    new Promise((resolve, reject) => {
      const p = new URL(url);
      const body = init.body ?? '';
      const req = request(
        {
          protocol: p.protocol,
          hostname: p.hostname,
          port: p.port,
          path: `${p.pathname}${p.search}`,
          method: init.method,
          headers: { ...init.headers, 'content-length': String(Buffer.byteLength(body)) },
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, text: async () => text });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  return { fetch, close: () => agent.destroy() };
}

/** What main.ts gives the in-process demo simulator. */
export type DemoSimulatorContext = {
  /** The portal itself, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** The maintenance credential: with it, simulated crews service the fleet (demo-crews.ts) instead of site staff. */
  maintenanceToken?: string;
  /**
   * The placed devices to simulate, each with its secret. The server decides which devices are the demo's
   * and keeps their secrets across restarts (server/src/seed/demo-simulator-keys.ts): the simulator never
   * re-keys a device.
   */
  listDevices(): Promise<
    {
      serial: string;
      secret: string;
      leftPumpType: string;
      rightPumpType: string;
      timezone?: string | null;
      /** Where the portal last saw the unit: the simulator plays on from there (no first-minute jump). */
      volumeRemain?: number | null;
      volumeRemain2?: number | null;
      batteryPercent?: number | null;
    }[]
  >;
};

/**
 * The demo's crews: four vans from a depot in New Orleans (the demo's sites are within 70 km) on a morning
 * round, 08:00-13:00, so the pumps due that day are refilled before the afternoon's customers. The demo's
 * pumps pour 1.2 to 9.9 ml a shot: the fastest go through a reservoir in two days, and a full day's round
 * of two vans reached some of them after they ran low (docs/simulator.md).
 */
const DEMO_CREWS: CrewSpec[] = defaultCrews(4, { depot: { lat: 29.9511, lng: -90.0715 }, timezone: 'America/Chicago' }).map(
  (c) => ({ ...c, hours: { start: 8, end: 13 } }),
);
/**
 * The demo crews' reserve: a pump is due when its forecast falls to the portal's low line (250 ml) before
 * the end of the next day, so the crews refill it before the portal warns, unless a busier day than the
 * forecast's comes first.
 */
const DEMO_RESERVE_ML = LOW_FLUID_THRESHOLD;

/**
 * `npm start` in development: the demo fleet checks in live. Speed from SIMULATOR_SPEED (default 60:
 * an hour of the fleet's life per real minute). Simulated crews service it (demo-crews.ts) unless
 * SIMULATOR_CREWS=off, when the units' own site staff refill as before.
 */
export async function startDemoSimulator(
  ctx: DemoSimulatorContext,
  log: (msg: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Simulator> {
  const asked = Number(env.SIMULATOR_SPEED ?? 60);
  const speed = Number.isFinite(asked) && asked > 0 ? asked : 60;
  const devices: SimulatedDevice[] = (await ctx.listDevices()).map((d) => ({
    serial: d.serial,
    secret: d.secret,
    leftPumpType: pumpType(d.leftPumpType, 'Sunscreen'),
    rightPumpType: pumpType(d.rightPumpType, 'Unspecified'),
    ...(d.timezone ? { timezone: d.timezone } : {}),
    initial: { volumeMl: d.volumeRemain ?? null, volume2Ml: d.volumeRemain2 ?? null, batteryPercent: d.batteryPercent ?? null },
    // A unit last seen with a low battery has a failing one (scenarios.ts): it holds little charge, so the
    // demo's BATTERY warnings hold instead of clearing at the first sunny check-in.
    ...(d.batteryPercent != null && d.batteryPercent < LOW_BATTERY_PERCENT
      ? { batteryCapacity: Math.max(5, Math.min(LOW_BATTERY_PERCENT - 5, d.batteryPercent + 5)) }
      : {}),
  }));
  const crewsOn = env.SIMULATOR_CREWS !== 'off' && !!ctx.maintenanceToken;
  const history = new DispenseHistory(Date.now());
  const sim = startSimulator({
    baseUrl: ctx.baseUrl,
    devices,
    speed,
    log,
    maxInFlight: 16,
    params: { siteStaffRefills: !crewsOn },
    ...(crewsOn
      ? {
          onDelivered: (serial: string, body: CheckinBody, d: DeviceState) => {
            for (const x of body.dispenses) history.add(serial, x.pump, simAt(d, Date.parse(x.at)), x.ml);
          },
        }
      : {}),
  });
  log(
    `simulator: ${devices.length} demo devices check in live at ${speed}x speed (SIMULATOR_SPEED to change, SIMULATOR=off to disable)`,
  );
  if (!crewsOn) return sim;
  const crews = startDemoCrews({
    baseUrl: ctx.baseUrl,
    token: ctx.maintenanceToken!,
    sim,
    serials: devices.map((d) => d.serial),
    history,
    rhythm: usualMlPerHour,
    crews: DEMO_CREWS,
    policy: plannerPolicy({ name: 'demo crews', scope: 'fluid', reserveMl: DEMO_RESERVE_ML }),
    log,
  });
  log(
    `simulator: ${DEMO_CREWS.length} simulated crews follow Service day's plan each simulated morning (SIMULATOR_CREWS=off: site staff refill instead)`,
  );
  return {
    ...sim,
    async stop() {
      crews.stop();
      await sim.stop();
    },
  };
}

function pumpType(v: string, fallback: PumpType): PumpType {
  return v === 'Sunscreen' || v === 'Sanitizer' || v === 'Unspecified' ? v : fallback;
}
