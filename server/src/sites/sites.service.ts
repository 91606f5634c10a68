import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { noAggregateCache, scopeKey, type AggregateCache } from '../lib/aggregate-cache.ts';
import type { SitesRepository } from './sites.repository.ts';

export type SitesServiceDeps = {
  repo: SitesRepository;
  /** Site and county counts computed once per scope and reused until a write or the cache's expiry (lib/aggregate-cache.ts). */
  cache?: AggregateCache;
};

/**
 * Sites (device groups) and counties, scoped to what the caller may see: a site is listed when it holds
 * a device in scope, and its counts cover only those devices.
 */
export function sitesService({ repo, cache = noAggregateCache }: SitesServiceDeps) {
  return {
    /** GET /api/v1/deviceGroup: sites with their devices, brands (named) and batches (each once, ascending). */
    async deviceGroups(viewer: ScopeViewer, fresh = false) {
      return cache.get(`deviceGroup:${scopeKey(viewer)}`, async () => {
        const rows = await repo.sites(deviceScope(viewer));
        const names = await repo.brandNames();
        return rows.map(({ brand_ids, batch_ids, ...g }) => ({
          ...g,
          brand_list: brand_ids.map((id) => ({ id, name: names.get(id) ?? '' })),
          batchIds: [...new Set(batch_ids)].sort((a, b) => a - b),
        }));
      }, fresh);
    },

    /** Counties holding sites in scope (every county for a distributor), with device counts for the COUNTY cards. */
    async locations(viewer: ScopeViewer, fresh = false) {
      return cache.get(`location:${scopeKey(viewer)}`, () => repo.counties(deviceScope(viewer), isDistributor(viewer)), fresh);
    },

    /** POST /api/v1/update_timezone_device_location_group: the panel stores back the zone it derived. */
    async updateTimezone(viewer: ScopeViewer, input: { id: number; timezone_id: string }) {
      const row = await repo.setTimezone(deviceScope(viewer), input.id, input.timezone_id);
      if (!row) throw ApiError.notFound('No site with this id.');
      return row;
    },
  };
}
export type SitesService = ReturnType<typeof sitesService>;
