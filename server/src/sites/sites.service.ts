import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { noAggregateCache, scopeKey, type AggregateCache } from '../lib/aggregate-cache.ts';
import { cachedJson } from '../lib/cached-json.ts';
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
  /** GET /api/v1/deviceGroup: sites with their devices, brands (named) and batches (each once, ascending). */
  async function deviceGroups(viewer: ScopeViewer) {
    const rows = await repo.sites(deviceScope(viewer));
    const names = await repo.brandNames();
    return rows.map(({ brand_ids, batch_ids, ...g }) => ({
      ...g,
      brand_list: brand_ids.map((id) => ({ id, name: names.get(id) ?? '' })),
      batchIds: [...new Set(batch_ids)].sort((a, b) => a - b),
    }));
  }

  /** Counties holding sites in scope (every county for a distributor), with device counts for the COUNTY cards. */
  async function locations(viewer: ScopeViewer) {
    return repo.counties(deviceScope(viewer), isDistributor(viewer));
  }

  return {
    deviceGroups,
    locations,
    /**
     * The same answers as JSON kept per scope, serialised and compressed once (0.7 MB of sites at 10,000
     * devices), reused until a portal write or the cache's expiry. `fresh`: past the cache (a nudged poll).
     */
    deviceGroupsAnswer: (viewer: ScopeViewer, fresh = false) =>
      cache.get(`deviceGroup:${scopeKey(viewer)}`, async () => cachedJson(JSON.stringify(await deviceGroups(viewer))), fresh),
    locationsAnswer: (viewer: ScopeViewer, fresh = false) =>
      cache.get(`location:${scopeKey(viewer)}`, async () => cachedJson(JSON.stringify(await locations(viewer))), fresh),

    /** POST /api/v1/update_timezone_device_location_group: the panel stores back the zone it derived. */
    async updateTimezone(viewer: ScopeViewer, input: { id: number; timezone_id: string }) {
      const row = await repo.setTimezone(deviceScope(viewer), input.id, input.timezone_id);
      if (!row) throw ApiError.notFound('No site with this id.');
      return row;
    },
  };
}
