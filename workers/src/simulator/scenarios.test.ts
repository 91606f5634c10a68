import { describe, expect, it } from 'vitest';
import { advance, createDevice, seededRandom } from './device-model.ts';
import {
  applyScenarios,
  batteryCapacityAt,
  networkDown,
  recalledBatchesAt,
  seasonScenarios,
  type Scenario,
} from './scenarios.ts';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 5, 1, 5, 0); // 00:00 in Chicago (CDT)

describe('scenarios', () => {
  it('a site-wide carrier outage takes every unit of the site off the network for its length, and no other', () => {
    const s: Scenario[] = [{ kind: 'carrier-outage', site: 'Beach', from: START + 10 * HOUR, hours: 6 }];
    const a = { serial: 'A', site: 'Beach' };
    const b = { serial: 'B', site: 'Beach' };
    const c = { serial: 'C', site: 'Park' };
    expect(networkDown(s, a, START + 10 * HOUR - 1)).toBe(false);
    expect(networkDown(s, a, START + 10 * HOUR)).toBe(true);
    expect(networkDown(s, b, START + 15.9 * HOUR)).toBe(true);
    expect(networkDown(s, a, START + 16 * HOUR)).toBe(false);
    expect(networkDown(s, c, START + 12 * HOUR)).toBe(false);
  });

  it('a flapping unit is off the network in about offShare of its periods, the same way for the same seed', () => {
    const flap: Scenario = {
      kind: 'flapping',
      serial: 'F',
      from: START,
      until: START + 48 * HOUR,
      periodMinutes: 30,
      offShare: 0.5,
      seed: 42,
    };
    const unit = { serial: 'F', site: 'Beach' };
    const states = Array.from({ length: 96 }, (_, k) => networkDown([flap], unit, START + k * 30 * 60_000 + 60_000));
    const off = states.filter(Boolean).length;
    expect(off).toBeGreaterThan(30);
    expect(off).toBeLessThan(66);
    // It changes state many times (flaps), and the same seed flaps identically.
    expect(states.filter((x, k) => k > 0 && x !== states[k - 1]).length).toBeGreaterThan(20);
    expect(Array.from({ length: 96 }, (_, k) => networkDown([{ ...flap }], unit, START + k * 30 * 60_000 + 60_000))).toEqual(
      states,
    );
    expect(networkDown([flap], unit, START + 48 * HOUR)).toBe(false);
    expect(networkDown([flap], { serial: 'G', site: 'Beach' }, START + HOUR)).toBe(false);
  });

  it('a failed battery holds at most its capacity: the unit reports a low battery from then on', () => {
    const s: Scenario[] = [{ kind: 'battery-failure', serial: 'SIM1', at: START + 24 * HOUR, capacity: 30 }];
    expect(batteryCapacityAt(s, 'SIM1', START)).toBe(100);
    expect(batteryCapacityAt(s, 'SIM1', START + 25 * HOUR)).toBe(30);
    const d = createDevice(
      { serial: 'SIM1', leftPumpType: 'Sunscreen', rightPumpType: 'Unspecified', timezone: 'America/Chicago' },
      { speed: 1, realStart: START, random: seededRandom(1), params: { dropoutPerDay: 0 } },
    );
    const random = seededRandom(2);
    for (let h = 1; h <= 24 * 4; h++) {
      applyScenarios(d, s, START + h * HOUR);
      advance(d, START + h * HOUR, random);
    }
    const after = d.buffer.batteries.filter((b) => Date.parse(b.at) > START + 25 * HOUR);
    expect(after.length).toBeGreaterThan(100);
    expect(Math.max(...after.map((b) => b.percent))).toBeLessThanOrEqual(30);
    expect(
      Math.max(...d.buffer.batteries.filter((b) => Date.parse(b.at) < START + 24 * HOUR).map((b) => b.percent)),
    ).toBeGreaterThan(50);
  });

  it('a batch is recalled from its instant on', () => {
    const s: Scenario[] = [{ kind: 'batch-recall', batch: 'SPF-1', at: START + 30 * 24 * HOUR }];
    expect([...recalledBatchesAt(s, START)]).toEqual([]);
    expect([...recalledBatchesAt(s, START + 31 * 24 * HOUR)]).toEqual(['SPF-1']);
  });

  it('a season of scenarios is drawn from the seed: the same seed gives the same set, another seed another', () => {
    const fleet = {
      units: Array.from({ length: 50 }, (_, k) => ({ serial: `S${k}`, site: `site${k % 5}` })),
      batches: ['SPF-1', 'SPF-2', 'SAN-1'],
    };
    const plan = {
      outages: { count: 2, hours: 6 },
      flapping: { count: 2, days: 2, periodMinutes: 45, offShare: 0.4 },
      batteryFailures: { count: 3, capacity: 25 },
      recallAt: 0.5,
    };
    const a = seasonScenarios(7, fleet, { start: START, days: 60 }, plan);
    expect(seasonScenarios(7, fleet, { start: START, days: 60 }, plan)).toEqual(a);
    expect(seasonScenarios(8, fleet, { start: START, days: 60 }, plan)).not.toEqual(a);
    expect(a.map((s) => s.kind).sort()).toEqual([
      'batch-recall',
      'battery-failure',
      'battery-failure',
      'battery-failure',
      'carrier-outage',
      'carrier-outage',
      'flapping',
      'flapping',
    ]);
    const recall = a.find((s) => s.kind === 'batch-recall')!;
    expect(recall.at).toBe(START + 30 * 24 * HOUR + 9 * HOUR);
    for (const s of a) if (s.kind === 'carrier-outage') expect(s.from).toBeGreaterThanOrEqual(START);
  });
});
