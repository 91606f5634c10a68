import { describe, expect, it } from 'vitest';
import type { SQL } from 'drizzle-orm';
import type { OverviewCounts, OverviewRepository } from './overview.repository.ts';
import { overviewService } from './overview.service.ts';

const counts: OverviewCounts = {
  total_devices: 12,
  online_devices: 9,
  offline_devices: 3,
  warning_devices: 4,
  pause_devices: 1,
  maintenance_devices: 2,
  low_battery_devices: 5,
  totalIsRegistration: 1,
  sunscreen_ml: 1000,
  sanitizer_ml: 29.5735,
  sunscreen_count: 400,
  sanitizer_count: 12,
  sunscreen_batches_in_scope: 2,
  sanitizer_batches_in_scope: 1,
  sunscreen_batches_all: 7,
  sanitizer_batches_all: 5,
  brands_in_scope: 3,
  brands_all: 9,
  market_partners: 2,
};

function fakeRepo() {
  /** Each read: a scan's device condition, or the kept rows' scope ('kept fleet', 'kept brands'). */
  const calls: { scope: SQL | undefined | string; location: number | undefined }[] = [];
  const repo: OverviewRepository = {
    async counts(scope, location) {
      calls.push({ scope, location });
      return counts;
    },
    async keptCounts(kept, location) {
      calls.push({ scope: kept.fleet ? 'kept fleet' : 'kept brands', location });
      return counts;
    },
  };
  return { repo, calls };
}

describe('overview service (spec section 3 counts)', () => {
  it("gives a distributor's overall view every batch and brand it manages, used or not", async () => {
    const { repo, calls } = fakeRepo();
    const answer = await overviewService({ repo }).overview({ id: 1, access: 'distributor' });
    expect(calls).toEqual([{ scope: 'kept fleet', location: undefined }]);
    expect(answer).toEqual({
      location: null,
      total_devices: 12,
      online_devices: 9,
      offline_devices: 3,
      warning_devices: 4,
      pause_devices: 1,
      maintenance_devices: 2,
      low_battery_devices: 5,
      totalIsRegistration: 1,
      totalSunscreenUsed: 33.81,
      totalSanitizerUsed: 1,
      totalSunscreenDispensingCount: 400,
      totalSanitizerDispensingCount: 12,
      totalSunscreenBatchs: 7,
      totalSanitizerBatchs: 5,
      total_brands: 9,
      total_market_partners: 2,
    });
  });

  it('counts only what feeds the devices in view for one county, and for a client', async () => {
    const { repo, calls } = fakeRepo();
    const county = await overviewService({ repo }).overview({ id: 1, access: 'distributor' }, 22071);
    expect(county).toMatchObject({ location: 22071, totalSunscreenBatchs: 2, totalSanitizerBatchs: 1, total_brands: 3 });
    const client = await overviewService({ repo }).overview({ id: 5, access: 'client' });
    expect(client).toMatchObject({ location: null, totalSunscreenBatchs: 2, totalSanitizerBatchs: 1, total_brands: 3 });
    const partner = await overviewService({ repo }).overview({ id: 6, access: 'market-partner' });
    expect(partner).toMatchObject({ location: null, total_brands: 3 });
    expect(calls[0]).toEqual({ scope: 'kept fleet', location: 22071 });
    // A client's counts are always limited to its brands' rows; a partner's are counted over its own devices.
    expect(calls[1]).toEqual({ scope: 'kept brands', location: undefined });
    expect(typeof calls[2]!.scope).toBe('object');
  });
});
