import type { DeviceRollupQuery, RollupAnswer } from '@fleet/shared';
import { brandCountsScope, deviceScope, type ScopeViewer } from '../access/scope.ts';
import type { RollupFilter, RollupsRepository } from './rollups.repository.ts';

/**
 * The dashboard's roll-ups (GET /api/v1/deviceRollup, issue 46): the county cards come from the kept counts
 * (device_counts) when the caller's scope is a set of brands and the filters are columns of them (brand,
 * county): the COUNTY tab and a brand's counties, a sum over a few rows. A batch or partner filter, a
 * market partner's scope (a set of devices) and the other groups are counted over the devices in scope, one
 * grouped query. Not cached: a write or a check-in shows in the next read.
 */
export function rollupsService(repo: RollupsRepository) {
  return {
    async rollup(viewer: ScopeViewer, query: DeviceRollupQuery): Promise<RollupAnswer> {
      const filter: RollupFilter = {
        brand: query.brand,
        county: query.county,
        partner: query.partner || undefined,
        batch: query.batch || undefined,
      };
      const brands = brandCountsScope(viewer);
      const rows =
        query.by === 'county' && brands && filter.partner === undefined && filter.batch === undefined
          ? await repo.keptCounties(brands, filter)
          : await repo.counted(query.by, deviceScope(viewer), filter);
      return { rows };
    },
  };
}
