import { describe, expect, it } from 'vitest';
import type { CheckinAnswer, DeviceConfig } from '@fleet/shared';
import {
  advance,
  buildUpload,
  createDevice,
  hourlyArrivals,
  localTime,
  refillPump,
  nextWake,
  seededRandom,
  settleUpload,
  simAt,
  type DeviceState,
  type ModelParams,
  type SimDeviceSpec,
} from './device-model.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const REAL_START = Date.UTC(2026, 0, 14, 12, 0, 0); // any real instant: the model never reads the clock
/** A simulated instant at a local hour of Chicago on Wednesday 2026-01-14 (CST, UTC-6). */
const chicago = (hour: number, minute = 0) => Date.UTC(2026, 0, 14, hour + 6, minute);

const spec = (serial = 'SIM00001', over: Partial<SimDeviceSpec> = {}): SimDeviceSpec => ({
  serial,
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Sanitizer',
  timezone: 'America/Chicago',
  ...over,
});
const device = (
  over: {
    simStart?: number;
    speed?: number;
    seed?: number;
    demandSeed?: number;
    params?: Partial<ModelParams>;
    spec?: Partial<SimDeviceSpec>;
  } = {},
) =>
  createDevice(spec('SIM00001', over.spec), {
    speed: over.speed ?? 60,
    realStart: REAL_START,
    simStart: over.simStart ?? chicago(9),
    random: seededRandom(over.seed ?? 1),
    params: { dropoutPerDay: 0, ...over.params },
    seqStart: 0,
    ...(over.demandSeed !== undefined ? { demandSeed: over.demandSeed } : {}),
  });
/** The real instant at which the device's simulated clock reads `sim`. */
const realFor = (d: DeviceState, sim: number) => d.realStart + (sim - d.simStart) / d.speed;
const run = (d: DeviceState, simHours: number, random = seededRandom(7), stepMinutes = 30) => {
  const end = d.simStart + simHours * HOUR;
  for (let t = d.simStart; t < end;) {
    t = Math.min(end, t + stepMinutes * MINUTE);
    advance(d, realFor(d, t), random);
  }
};
const config = (over: Partial<DeviceConfig> = {}): DeviceConfig => ({
  is_pause: false,
  is_activated: true,
  is_enabled_maintenance: false,
  is_enabled_vandalism: false,
  rental: null,
  pump: {
    steps_per_second: 300,
    steps_per_ml: 30,
    ml_per_shot: 2.464,
    steps_per_second2: 300,
    steps_per_ml2: 30,
    ml_per_shot2: 2.464,
    vandalism_max_shots: 10,
    vandalism_interval: 60,
  },
  poweroff_minutes: 30,
  wakeup_minutes: 5,
  time_zone: 'America/Chicago',
  ...over,
});
const answer = (pending: number[] = [], over: Partial<DeviceConfig> = {}): Pick<CheckinAnswer, 'config' | 'pending'> => ({
  config: config(over),
  pending: pending.map((id) => ({ id, setting: 'pause', desired: { is_pause: true } })),
});

describe('simulated device: local time', () => {
  it('reads the site’s local hour and weekday, across the DST change', () => {
    const d = device();
    expect(localTime(d, chicago(13)).hour).toBe(13);
    expect(localTime(d, chicago(13)).weekday).toBe(3); // Wednesday
    expect(localTime(d, Date.UTC(2026, 6, 4, 18)).hour).toBe(13); // CDT, UTC-5
  });
});

describe('simulated device: dispensing', () => {
  it('dispenses nothing at 03:00 local', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const d = device({ simStart: chicago(2), seed, params: { peakShotsPerHour: 100 } });
      run(d, 2, seededRandom(seed));
      expect(d.buffer.dispenses).toEqual([]);
    }
  });

  it('dispenses more around 13:00 than at 09:00, and more at weekends', () => {
    const count = (simStart: number) => {
      let n = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const d = device({ simStart, seed });
        run(d, 1, seededRandom(1000 + seed), 10);
        n += d.buffer.dispenses.length;
      }
      return n;
    };
    const nine = count(chicago(8, 30));
    const one = count(chicago(12, 30));
    expect(nine).toBeGreaterThan(0);
    expect(one).toBeGreaterThan(nine * 1.8);
    const saturday = count(chicago(12, 30) + 3 * 24 * HOUR);
    expect(saturday).toBeGreaterThan(one * 1.2);
  });

  it('numbers each dispense with a strictly increasing seq per pump and the device’s ml per shot', () => {
    const d = device({ spec: { mlPerShot: 3.7 } });
    run(d, 72);
    for (const pump of [1, 2] as const) {
      const seqs = d.buffer.dispenses.filter((e) => e.pump === pump).map((e) => e.seq);
      expect(seqs.length).toBeGreaterThan(20);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    expect(new Set(d.buffer.dispenses.map((e) => e.ml))).toEqual(new Set([3.7]));
  });

  it('takes the ml per shot of the answered pump setting, and stops while paused or deactivated', () => {
    const d = device({ simStart: chicago(10) });
    applyAndClear(d, answer([], { pump: { ...config().pump, ml_per_shot: 4.929, ml_per_shot2: 1.232 } }));
    run(d, 2);
    expect(new Set(d.buffer.dispenses.filter((e) => e.pump === 1).map((e) => e.ml))).toEqual(new Set([4.929]));
    expect(new Set(d.buffer.dispenses.filter((e) => e.pump === 2).map((e) => e.ml))).toEqual(new Set([1.232]));

    for (const over of [{ is_pause: true }, { is_activated: false }]) {
      const p = device({ simStart: chicago(10), params: { peakShotsPerHour: 100 } });
      applyAndClear(p, answer([], over));
      run(p, 4);
      expect(p.buffer.dispenses).toEqual([]);
      expect(p.buffer.batteries.length).toBeGreaterThan(0); // still awake, still reporting
    }
  });
});

describe('simulated device: rental timer', () => {
  it('dispenses only inside the rental dates and daily hours of each pump', () => {
    const d = device({ simStart: chicago(8), params: { peakShotsPerHour: 60 } });
    const rental = {
      start_date: '2026-01-10',
      end_date: '2026-01-20',
      start_time: '10:00',
      end_time: '12:00',
      pump_2_start_time: '14:00',
      pump_2_end_time: '15:00',
    };
    applyAndClear(d, answer([], { rental }));
    run(d, 10);
    const hours = (pump: number) =>
      d.buffer.dispenses.filter((e) => e.pump === pump).map((e) => localTime(d, simOf(d, e.at)).hour);
    expect(hours(1).length).toBeGreaterThan(0);
    expect(hours(1).every((h) => h >= 10 && h < 12)).toBe(true);
    expect(hours(2).length).toBeGreaterThan(0);
    expect(hours(2).every((h) => h >= 14 && h < 15)).toBe(true);

    const over = device({ simStart: chicago(8), params: { peakShotsPerHour: 60 } });
    applyAndClear(over, answer([], { rental: { ...rental, end_date: '2026-01-13' } }));
    run(over, 10);
    expect(over.buffer.dispenses).toEqual([]);
  });
});

function applyAndClear(d: DeviceState, a: Pick<CheckinAnswer, 'config' | 'pending'>) {
  settleUpload(d, buildUpload(d, d.realStart), a);
}

describe('simulated device: fluid, battery, signal', () => {
  it('never reports a negative volume, and the level sensor reads false exactly when empty', () => {
    const d = device({ params: { peakShotsPerHour: 120, refillDelayHours: [40, 60] } });
    run(d, 48);
    const levels = d.buffer.levels;
    expect(levels.some((l) => l.volumeRemain === 0)).toBe(true);
    for (const l of levels) {
      expect(l.volumeRemain).toBeGreaterThanOrEqual(0);
      expect(l.sensor).toBe(l.volumeRemain > 0);
    }
    for (const p of d.pumps) expect(p.volume).toBeGreaterThanOrEqual(0);
  });

  it('is refilled to the full reservoir some hours after running low', () => {
    const d = device({ params: { peakShotsPerHour: 120, refillDelayHours: [2, 4] } });
    run(d, 96);
    const left = d.buffer.levels.filter((l) => l.pump === 1).map((l) => l.volumeRemain);
    const low = left.findIndex((v) => v <= 250);
    expect(low).toBeGreaterThanOrEqual(0);
    // Back near the full reservoir at the next reading (customers may have used a little since the refill).
    expect(left.slice(low).some((v) => v > 1350)).toBe(true);
    expect(d.pumps[0]!.refills).toBeGreaterThan(0);
  });

  it('keeps the battery within 0..100 %, charging by day and draining at night', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const d = device({ seed, simStart: chicago(0) });
      run(d, 24 * 20, seededRandom(seed));
      expect(
        d.buffer.batteries.filter(
          (b) => !(b.percent >= 0 && b.percent <= 100 && Math.abs(b.volt - (3.3 + (b.percent / 100) * 0.9)) < 0.01),
        ),
      ).toEqual([]);
      expect(d.buffer.dataUsage.filter((u) => !(u.signalQuality >= 20 && u.signalQuality <= 95))).toEqual([]);
    }
    // Over one day: down through the night, up through the sunny hours.
    const d = device({ seed: 3, simStart: chicago(0), params: { peakShotsPerHour: 0 } });
    d.battery = 50;
    run(d, 24);
    const at = (h: number) => d.buffer.batteries.find((b) => localTime(d, simOf(d, b.at)).hour === h)!.percent;
    expect(at(6)).toBeLessThan(at(1));
    expect(at(16)).toBeGreaterThan(at(7));
  });

  it('sends now and then an OUT status SMS and its IN acknowledgement, with increasing seq', () => {
    const d = device({ params: { smsPerDay: 6 } });
    run(d, 72);
    const sms = d.buffer.sms;
    expect(sms.length).toBeGreaterThan(4);
    expect(sms.map((m) => m.direction).slice(0, 2)).toEqual(['OUT', 'IN']);
    for (let i = 1; i < sms.length; i++) expect(sms[i]!.seq).toBe(sms[i - 1]!.seq + 1);
  });
});

/** The simulated instant of a real timestamp sent by the device. */
const simOf = (d: DeviceState, at: string) => simAt(d, Date.parse(at));

describe('simulated device: check-ins', () => {
  it('acknowledges each pending id from an answer exactly once, in the next check-in', () => {
    const d = device();
    run(d, 1);
    const first = buildUpload(d, realFor(d, d.simCursor));
    expect(first.body.applied).toEqual([]);
    settleUpload(d, first, answer([11, 12]));

    const second = buildUpload(d, realFor(d, d.simCursor));
    expect(second.body.applied).toEqual([11, 12]);
    // A retry of that check-in (no answer came) carries the same acknowledgements...
    expect(buildUpload(d, realFor(d, d.simCursor)).body.applied).toEqual([11, 12]);
    // ...and once delivered they are never sent again, even if an answer still lists them.
    settleUpload(d, second, answer([11, 12, 13]));
    const third = buildUpload(d, realFor(d, d.simCursor));
    expect(third.body.applied).toEqual([13]);
    settleUpload(d, third, answer([]));
    expect(buildUpload(d, realFor(d, d.simCursor)).body.applied).toEqual([]);
  });

  it('a refill recorded in the portal (reset_ml) reaches the unit once, and the next level reading shows it', () => {
    // No site staff: only the portal's refill may bring the level back.
    const d = device({ simStart: chicago(9), params: { peakShotsPerHour: 150, siteStaffRefills: false } });
    run(d, 8);
    const before = d.pumps[0]!.volume;
    expect(before).toBeLessThan(250);
    const upload = buildUpload(d, realFor(d, d.simCursor));
    settleUpload(d, upload, {
      config: config(),
      pending: [{ id: 41, setting: 'reset_ml_1', desired: { pump_number: 1, volume_remain: 1500 } }],
    });
    expect(d.pumps[0]!.volume).toBe(1500);
    expect(d.pumps[0]!.refills).toBe(1);
    // The answer of the next check-in still lists it (not yet acknowledged): applied once, not twice.
    advance(d, realFor(d, d.simCursor + 15 * MINUTE), seededRandom(5));
    const level = d.buffer.levels.filter((l) => l.pump === 1).at(-1)!;
    expect(level.volumeRemain).toBeGreaterThan(1400);
    expect(level.sensor).toBe(true);
    const dispensed = 1500 - d.pumps[0]!.volume;
    settleUpload(d, buildUpload(d, realFor(d, d.simCursor)), {
      config: config(),
      pending: [{ id: 41, setting: 'reset_ml_1', desired: { pump_number: 1, volume_remain: 1500 } }],
    });
    expect(d.pumps[0]!.volume).toBe(1500 - dispensed);
    expect(d.pumps[0]!.refills).toBe(1);
    // The right pump is untouched.
    expect(d.pumps[1]!.refills).toBe(0);
  });

  it('without site staff, an empty pump stays empty', () => {
    const d = device({ params: { peakShotsPerHour: 120, siteStaffRefills: false } });
    run(d, 96);
    const left = d.buffer.levels.filter((l) => l.pump === 1).map((l) => l.volumeRemain);
    expect(left.at(-1)).toBe(0);
    expect(d.pumps[0]!.refills).toBe(0);
  });

  it('re-sends the same buffered events after a failed upload, and drops them once delivered', () => {
    const d = device({ simStart: chicago(11) });
    run(d, 1);
    const a = buildUpload(d, realFor(d, d.simCursor));
    expect(a.body.dispenses.length).toBeGreaterThan(0);
    advance(d, realFor(d, d.simCursor + 30 * MINUTE), seededRandom(3));
    const retry = buildUpload(d, realFor(d, d.simCursor));
    expect(retry.body.dispenses.slice(0, a.body.dispenses.length)).toEqual(a.body.dispenses);
    settleUpload(d, retry, answer());
    expect(d.buffer.dispenses).toEqual([]);
    expect(d.buffer.batteries).toEqual([]);
  });

  it('never dates an event after the real clock it is sent at, even at high speed', () => {
    for (const speed of [1, 60, 600, 3600, 20_000]) {
      const random = seededRandom(speed);
      const d = device({ speed, simStart: chicago(10), params: { smsPerDay: 20 } });
      let real = REAL_START;
      for (let i = 0; i < 200; i++) {
        real += Math.floor(random() * 5_000) + 1;
        advance(d, real, random);
        const u = buildUpload(d, real);
        expect(Date.parse(u.body.sentAt)).toBeLessThanOrEqual(real);
        const future = [...u.body.dispenses, ...u.body.levels, ...u.body.batteries, ...u.body.dataUsage, ...u.body.sms].filter(
          (e) => Date.parse(e.at) > real,
        );
        expect(future).toEqual([]);
        settleUpload(d, u, answer());
      }
      expect(d.totals.dispenses + d.totals.readings).toBeGreaterThan(0);
    }
  });

  it('gives every reading of a stream its own timestamp (readings are keyed by time)', () => {
    const d = device({ speed: 100_000 });
    run(d, 24, seededRandom(5), 5);
    for (const list of [d.buffer.batteries, d.buffer.dataUsage, d.buffer.levels.filter((l) => l.pump === 1)]) {
      const stamps = list.map((r) => r.at);
      expect(new Set(stamps).size).toBe(stamps.length);
    }
  });

  it('sleeps the configured minutes scaled by speed, and sometimes drops off the network for hours', () => {
    const d = device({ speed: 60 });
    settleUpload(d, buildUpload(d, REAL_START), answer([], { poweroff_minutes: 15 }));
    const { delayMs, offline } = nextWake(d, REAL_START, () => 0.5);
    expect(offline).toBe(false);
    expect(delayMs).toBeCloseTo((15 * MINUTE) / 60, -1);

    const flaky = device({ speed: 60, params: { dropoutPerDay: 48, dropoutHours: [4, 4] } });
    const away = nextWake(flaky, REAL_START, () => 0.01);
    expect(away.offline).toBe(true);
    expect(away.delayMs).toBeCloseTo((4 * HOUR) / 60, -1);
  });
});

describe('simulated device: the same demand for every policy', () => {
  it('the same seed brings the same customers whatever happens to the pumps', () => {
    // Two runs of one unit on one demand seed, each with its own shared stream (battery, SMS, signal...):
    // A is refilled at once whenever low, B is left empty for a day and paused for hours.
    const a = device({
      seed: 1,
      demandSeed: 99,
      simStart: chicago(0),
      params: { peakShotsPerHour: 40, siteStaffRefills: false },
    });
    const b = device({
      seed: 2,
      demandSeed: 99,
      simStart: chicago(0),
      params: { peakShotsPerHour: 40, siteStaffRefills: false },
    });
    const randomA = seededRandom(3);
    const randomB = seededRandom(4);
    for (let h = 1; h <= 24 * 4; h++) {
      advance(a, realFor(a, a.simStart + h * HOUR), randomA);
      for (const p of a.pumps) if (p.volume < 300) refillPump(a, p.pump);
      b.config.paused = h >= 30 && h < 40;
      if (h === 60) for (const p of b.pumps) refillPump(b, p.pump);
      advance(b, realFor(b, b.simStart + h * HOUR), randomB);
    }
    // Every customer came to both: served at A, and at B served or turned away.
    expect(a.totals.customers).toBeGreaterThan(500);
    expect(b.totals.customers).toBe(a.totals.customers);
    expect(a.totals.missed).toBe(0);
    expect(b.totals.missed).toBeGreaterThan(50);
    expect(b.totals.dispenses + b.totals.missed).toBe(a.totals.dispenses);
    // Where both served, the same customer at the same instant.
    const times = (d: DeviceState) => new Set(d.buffer.dispenses.map((e) => `${e.pump}@${e.at}`));
    const atA = times(a);
    const atB = [...times(b)];
    expect(atB.length).toBeGreaterThan(100);
    expect(atB.filter((x) => !atA.has(x))).toEqual([]);
  });

  it('demand is keyed per pump and hour: another seed or serial brings other customers', () => {
    const d = device({ demandSeed: 7, simStart: chicago(0) });
    const hour = Math.floor(chicago(13) / HOUR);
    const same = device({ demandSeed: 7, simStart: chicago(0) });
    expect(hourlyArrivals(d, d.pumps[0]!, hour)).toEqual(hourlyArrivals(same, same.pumps[0]!, hour));
    const other = device({ demandSeed: 8, simStart: chicago(0) });
    const all = (x: DeviceState) => Array.from({ length: 24 * 7 }, (_, k) => hourlyArrivals(x, x.pumps[0]!, hour + k)).flat();
    expect(all(other)).not.toEqual(all(d));
    expect(all(d)).not.toEqual(Array.from({ length: 24 * 7 }, (_, k) => hourlyArrivals(d, d.pumps[1]!, hour + k)).flat());
  });
});
