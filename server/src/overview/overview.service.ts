import { mlToFlOz, roundVolume } from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { noAggregateCache, scopeKey, type AggregateCache } from '../lib/aggregate-cache.ts';
import { keptScope } from '../sites/index.ts';
import type { OverviewRepository } from './overview.repository.ts';

export type OverviewServiceDeps = {
  repo: OverviewRepository;
  /** Counts computed once per scope and county and reused until a write or the cache's expiry (lib/aggregate-cache.ts). */
  cache?: AggregateCache;
};

/** ml dispensed to fl.oz., 2 decimals. */
const flOz2 = (ml: number) => roundVolume(mlToFlOz(ml), 2);

/** GET /api/v1/overview: every count of spec section 3 for the caller's scope, overall or for one county. */
export function overviewService({ repo, cache = noAggregateCache }: OverviewServiceDeps) {
  return {
    /** `fresh`: skip the cache (a poll nudged by a portal write). */
    async overview(viewer: ScopeViewer, location?: number, fresh = false) {
      // Distributors and clients read the kept rows (migration 0025); a partner's own devices are counted.
      const kept = keptScope(viewer);
      const r = await cache.get(
        `overview:${scopeKey(viewer)}:${location ?? ''}`,
        () => (kept ? repo.keptCounts(kept, location) : repo.counts(deviceScope(viewer), location)),
        fresh,
      );
      // A distributor counts every batch and brand it manages, used or not; others count what feeds their devices.
      const all = viewer.access === 'distributor' && !location;
      return {
        location: location ?? null,
        total_devices: r.total_devices,
        online_devices: r.online_devices,
        offline_devices: r.offline_devices,
        warning_devices: r.warning_devices,
        pause_devices: r.pause_devices,
        maintenance_devices: r.maintenance_devices,
        low_battery_devices: r.low_battery_devices,
        totalIsRegistration: r.totalIsRegistration,
        totalSunscreenUsed: flOz2(r.sunscreen_ml),
        totalSanitizerUsed: flOz2(r.sanitizer_ml),
        totalSunscreenDispensingCount: r.sunscreen_count,
        totalSanitizerDispensingCount: r.sanitizer_count,
        totalSunscreenBatchs: all ? r.sunscreen_batches_all : r.sunscreen_batches_in_scope,
        totalSanitizerBatchs: all ? r.sanitizer_batches_all : r.sanitizer_batches_in_scope,
        total_brands: all ? r.brands_all : r.brands_in_scope,
        total_market_partners: r.market_partners,
      };
    },
  };
}
