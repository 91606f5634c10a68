import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { noAggregateCache, scopeKey, type AggregateCache } from '../lib/aggregate-cache.ts';
import { cachedJson, encodedLike, type CachedJson } from '../lib/cached-json.ts';
import { keptScope } from './kept-scope.ts';
import type { SitesRepository, SitesView } from './sites.repository.ts';
import { timezonesAt } from './site-resolver.ts';

/** The zone ICU files a name under, so that an alias and its zone compare equal. */
function canonicalZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return zone;
  }
}

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
  async function deviceGroups(viewer: ScopeViewer, view?: SitesView) {
    const rows = await repo.sites(deviceScope(viewer), view);
    const names = await repo.brandNames();
    return rows.map(({ brand_ids, batch_ids, ...g }) => ({
      ...g,
      brand_list: brand_ids.map((id) => ({ id, name: names.get(id) ?? '' })),
      batchIds: [...new Set(batch_ids)].sort((a, b) => a - b),
    }));
  }

  /**
   * The same answer as JSON text: distributors and clients read it whole from the kept rows (migration 0025,
   * built in the database in this answer's form); a market partner's scope is a list of devices, not of brands,
   * so its sites are counted over its own devices (user_exclusive_devices' index: its devices, not the fleet).
   */
  async function deviceGroupsText(viewer: ScopeViewer, view?: SitesView) {
    const kept = keptScope(viewer);
    return kept ? repo.keptSitesJson(kept, view) : JSON.stringify(await deviceGroups(viewer, view));
  }

  /** Counties holding sites in scope (every county for a distributor), with device counts for the COUNTY cards. */
  async function locations(viewer: ScopeViewer) {
    const kept = keptScope(viewer);
    return kept ? repo.keptCounties(kept, isDistributor(viewer)) : repo.counties(deviceScope(viewer), isDistributor(viewer));
  }

  return {
    deviceGroups,
    locations,
    /** GET /api/v1/siteNames: the map labels' names of the sites in a view (not cached, as deviceGroupsInView). */
    siteNamesInView: async (viewer: ScopeViewer, view: SitesView) =>
      cachedJson(await repo.siteNamesJson(deviceScope(viewer), view)),
    /** The sites in one view (issue 46): a few hundred sites, not cached (each view is its own question). */
    deviceGroupsInView: async (viewer: ScopeViewer, view: SitesView) => cachedJson(await deviceGroupsText(viewer, view)),
    /**
     * The same answers as JSON kept per scope, serialised and compressed once (0.7 MB of sites at 10,000
     * devices), reused until a portal write or the cache's expiry; a refresh is swapped in with the encodings
     * already asked for (encodedLike). `fresh`: past the cache (a nudged poll).
     */
    deviceGroupsAnswer: (viewer: ScopeViewer, fresh = false) =>
      cache.get<CachedJson>(
        `deviceGroup:${scopeKey(viewer)}`,
        async (previous) => encodedLike(cachedJson(await deviceGroupsText(viewer)), previous),
        fresh,
      ),
    locationsAnswer: (viewer: ScopeViewer, fresh = false) =>
      cache.get<CachedJson>(
        `location:${scopeKey(viewer)}`,
        async (previous) => encodedLike(cachedJson(JSON.stringify(await locations(viewer))), previous),
        fresh,
      ),

    /**
     * POST /api/v1/update_timezone_device_location_group. A site's zone is its coordinates' (geo-tz, as
     * when the site was made): the call can only confirm it. A submitted zone that disagrees is refused
     * with 400 naming the right one, so no caller sets the zone of a site it shares with others (the
     * devices' config carries it). Clients cannot configure machines (spec section 6): the route refuses
     * them with 403 before this runs. Aliases count as the same zone (US/Central is America/Chicago).
     */
    async updateTimezone(viewer: ScopeViewer, input: { id: number; timezone_id: string }) {
      const scope = deviceScope(viewer);
      const site = await repo.siteInScope(scope, input.id);
      if (!site) throw ApiError.notFound('No site with this id.');
      const zones = timezonesAt(site.lat, site.lng);
      const zone = zones.find((z) => canonicalZone(z) === canonicalZone(input.timezone_id));
      if (!zone) {
        throw ApiError.field(
          'timezone_id',
          zones.length
            ? `This site is in ${zones[0]} (from its coordinates), not ${input.timezone_id}.`
            : "No time zone can be derived from this site's coordinates.",
        );
      }
      const row = await repo.setTimezone(scope, input.id, zone);
      if (!row) throw ApiError.notFound('No site with this id.');
      return row;
    },
  };
}
