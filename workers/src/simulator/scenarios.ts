/**
 * Scenarios played on top of the simulated fleet (issue 47): what Alerts and Service day have to prove
 * themselves against. Each is data (when, where, how long) and pure functions of it and the simulated
 * time, so the in-process season runner (season.ts), the cross-check through the gateway and the live
 * simulator apply exactly the same thing. `seasonScenarios` draws a set from a seed.
 *
 * - carrier-outage: every unit of a site loses the mobile network for `hours` (they keep dispensing and
 *   buffering, and upload it all when the network returns; the portal sees them go offline);
 * - flapping: a unit whose network comes and goes: within [from, until) each period of `periodMinutes`
 *   it is off the network with probability `offShare`, drawn per period from the seed (so the same seed
 *   flaps the same way whatever else happens);
 * - battery-failure: from `at`, the unit's battery holds at most `capacity` % (it drains, browns out at
 *   night and reports BATTERY);
 * - batch-recall: from `at`, the batch is recalled: the portal shows BATCH_RECALLED on every unit it feeds
 *   and pauses them (as POST /batches/recall does) until a technician swaps the fluid.
 */
import { keyedRandom, seededRandom, type DeviceState } from './device-model.ts';

export type Scenario =
  | { kind: 'carrier-outage'; site: string; from: number; hours: number }
  | { kind: 'flapping'; serial: string; from: number; until: number; periodMinutes: number; offShare: number; seed: number }
  | { kind: 'battery-failure'; serial: string; at: number; capacity: number }
  | { kind: 'batch-recall'; batch: string; at: number };

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Whether the unit (at `site`) has no network at simulated instant t. */
export function networkDown(scenarios: readonly Scenario[], unit: { serial: string; site: string }, t: number): boolean {
  for (const s of scenarios) {
    if (s.kind === 'carrier-outage' && s.site === unit.site && t >= s.from && t < s.from + s.hours * HOUR) return true;
    if (s.kind === 'flapping' && s.serial === unit.serial && t >= s.from && t < s.until) {
      const period = Math.floor((t - s.from) / (s.periodMinutes * MINUTE));
      if (keyedRandom(s.seed, s.serial, 3, period)() < s.offShare) return true;
    }
  }
  return false;
}

/** The most charge the unit's battery holds at t, % (100 unless a failure happened by then). */
export function batteryCapacityAt(scenarios: readonly Scenario[], serial: string, t: number): number {
  let capacity = 100;
  for (const s of scenarios)
    if (s.kind === 'battery-failure' && s.serial === serial && t >= s.at) capacity = Math.min(capacity, s.capacity);
  return capacity;
}

/** The batches recalled by t. */
export function recalledBatchesAt(scenarios: readonly Scenario[], t: number): Set<string> {
  const out = new Set<string>();
  for (const s of scenarios) if (s.kind === 'batch-recall' && t >= s.at) out.add(s.batch);
  return out;
}

/** What the scenarios do to the unit itself at t (the network is asked per wake-up: networkDown). */
export function applyScenarios(d: DeviceState, scenarios: readonly Scenario[], t: number) {
  const capacity = batteryCapacityAt(scenarios, d.serial, t);
  if (capacity < d.batteryCapacity) {
    d.batteryCapacity = capacity;
    d.battery = Math.min(d.battery, capacity);
  }
}

export type ScenarioPlan = {
  /** Site-wide carrier outages and their length in hours. */
  outages?: { count: number; hours: number };
  flapping?: { count: number; days: number; periodMinutes: number; offShare: number };
  batteryFailures?: { count: number; capacity: number };
  /** Recall one batch at this share of the season (0..1). */
  recallAt?: number;
};

/**
 * A set of scenarios drawn from `seed` over a season: which sites, units and batch, and when. Pure: the
 * same seed and fleet give the same scenarios.
 */
export function seasonScenarios(
  seed: number,
  fleet: { units: { serial: string; site: string }[]; batches: string[] },
  season: { start: number; days: number },
  plan: ScenarioPlan,
): Scenario[] {
  const random = seededRandom(seed ^ 0x5ce7a210);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  // Whole hours within the season, daytime-ish starts so an outage overlaps opening hours.
  const when = (marginDays: number) =>
    season.start +
    Math.floor(random() * Math.max(1, season.days - marginDays)) * 24 * HOUR +
    (8 + Math.floor(random() * 8)) * HOUR;
  const out: Scenario[] = [];
  const sites = [...new Set(fleet.units.map((u) => u.site))];
  for (let k = 0; k < (plan.outages?.count ?? 0) && sites.length; k++)
    out.push({ kind: 'carrier-outage', site: pick(sites), from: when(1), hours: plan.outages!.hours });
  for (let k = 0; k < (plan.flapping?.count ?? 0) && fleet.units.length; k++) {
    const from = when(plan.flapping!.days);
    out.push({
      kind: 'flapping',
      serial: pick(fleet.units).serial,
      from,
      until: from + plan.flapping!.days * 24 * HOUR,
      periodMinutes: plan.flapping!.periodMinutes,
      offShare: plan.flapping!.offShare,
      seed: Math.floor(random() * 2 ** 32),
    });
  }
  for (let k = 0; k < (plan.batteryFailures?.count ?? 0) && fleet.units.length; k++)
    out.push({
      kind: 'battery-failure',
      serial: pick(fleet.units).serial,
      at: when(1),
      capacity: plan.batteryFailures!.capacity,
    });
  if (plan.recallAt !== undefined && fleet.batches.length)
    out.push({
      kind: 'batch-recall',
      batch: pick(fleet.batches),
      at: season.start + Math.round(plan.recallAt * season.days) * 24 * HOUR + 9 * HOUR,
    });
  return out;
}
