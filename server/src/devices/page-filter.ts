import { searchKey, type DeviceFilter } from '@fleet/shared';
import type { DevicePageFilter } from './devices.repository.ts';

/**
 * A page's query (or a selection's filter, the same fields) as the repository reads it: the searches as
 * searchKey (none when blank), no empty partner list. One conversion for devicePage and selections.
 */
export function pageFilterOf(query: DeviceFilter, page: { afterId?: number | undefined; limit: number }): DevicePageFilter {
  const key = (text: string | undefined) => (text === undefined ? '' : searchKey(text)) || undefined;
  return {
    ...page,
    q: key(query.q),
    brand: query.brand,
    county: query.county,
    site: query.site,
    notBrand: query.notBrand,
    noBrand: query.noBrand,
    address: query.address,
    search: key(query.search),
    partner: query.partner?.length ? query.partner : undefined,
    status: query.status,
    batch: query.batch,
  };
}
