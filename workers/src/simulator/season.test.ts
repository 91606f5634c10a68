import { describe, expect, it } from 'vitest';
import { plannerPolicy, seasonStock } from './planner-policy.ts';
import {
  defaultCrews,
  naivePolicy,
  nextLocalHour,
  nonePolicy,
  runSeason,
  seasonFleet,
  siteStaffPolicy,
  type PlanInput,
  type ServicePolicy,
} from './season.ts';

const START = Date.UTC(2026, 5, 1, 5, 0); // 00:00 in Chicago (CDT)
const fleet = seasonFleet(3, { devices: 40, sites: 6, start: START });
const base = { fleet, crews: defaultCrews(1), start: START, days: 12, seed: 5 };

describe('season runner', () => {
  it('the same customers come whatever the policy; crews and staff keep pumps from running dry', async () => {
    const none = await runSeason({ ...base, policy: nonePolicy });
    const naive = await runSeason({ ...base, policy: naivePolicy });
    const staff = await runSeason({ ...base, policy: siteStaffPolicy });
    const planner = await runSeason({ ...base, policy: plannerPolicy({ stock: seasonStock(fleet.batches) }) });

    expect(none.customers).toBeGreaterThan(10_000);
    expect(naive.customers).toBe(none.customers);
    expect(staff.customers).toBe(none.customers);
    expect(planner.customers).toBe(none.customers);
    // Left alone, pumps run dry; a naive crew keeps most of them going.
    expect(none.emptyShare).toBeGreaterThan(0.1);
    expect(naive.emptyShare).toBeLessThan(none.emptyShare / 2);
    expect(staff.emptyShare).toBeLessThan(none.emptyShare / 2);
    expect(naive.missedCustomers).toBeLessThan(none.missedCustomers);
    expect(none.visits).toBe(0);
    expect(none.km).toBe(0);
    expect(naive.visits).toBeGreaterThan(10);
    expect(naive.km).toBeGreaterThan(20);
    // The naive crew comes once the warning shows: its visits find the pump low, not half full.
    expect(naive.earlyVisitShare).toBeLessThan(0.1);
    expect(naive.pumpHours).toBe(none.pumpHours);
    // Service day's planner: pumps kept from running dry, with shorter routes than the naive crew's.
    expect(planner.emptyShare).toBeLessThan(0.005);
    expect(planner.km).toBeLessThan(naive.km * 0.8);
    expect(planner.visits).toBeGreaterThan(10);
  });

  it('a policy gets the fleet as the portal shows it each morning, and its routes are driven', async () => {
    const seen: PlanInput[] = [];
    // Refill the first unit's left pump every day, whatever it holds.
    const eager: ServicePolicy = {
      name: 'eager',
      planDay(input) {
        seen.push(input);
        return [{ crew: 'crew-1', visits: [{ serial: input.fleet[0]!.serial, refills: [{ pump: 1 }] }] }];
      },
    };
    const r = await runSeason({ ...base, days: 3, policy: eager });
    expect(seen.length).toBe(3);
    const first = seen[0]!;
    // 06:00 in Chicago.
    expect(first.now.toISOString()).toBe('2026-06-01T11:00:00.000Z');
    expect(first.crews[0]).toMatchObject({ id: 'crew-1', hours: { start: 8, end: 17 } });
    const unit = first.fleet[0]!;
    expect(unit).toMatchObject({
      serial: 'SEA00001',
      online: true,
      site: { timezone: 'America/Chicago' },
      checkin: { poweroffMinutes: 30, wakeupMinutes: 5 },
    });
    expect(unit.pumps[0]).toMatchObject({ pump: 1, fluid: 'Sunscreen', reservoirMl: 1500, batch: 'SPF-S1' });
    expect(unit.batteryPercent).toBeGreaterThan(0);
    expect(r.visits).toBe(3);
    expect(r.refills).toBe(3);
    // Each morning the pump was refilled the day before: the portal shows it nearly full again.
    expect(seen[2]!.fleet[0]!.pumps[0]!.volumeMl).toBeGreaterThan(1300);
    expect(r.earlyVisits).toBeGreaterThanOrEqual(2);
  });

  it('plans at the local hour, across a daylight-saving change', () => {
    expect(new Date(nextLocalHour(START, 'America/Chicago', 6)).toISOString()).toBe('2026-06-01T11:00:00.000Z');
    // 01:00 CDT on the night the clocks go back: 06:00 is CST, 12:00 UTC (not 11:00).
    expect(new Date(nextLocalHour(Date.UTC(2026, 10, 1, 6), 'America/Chicago', 6)).toISOString()).toBe(
      '2026-11-01T12:00:00.000Z',
    );
  });
});
