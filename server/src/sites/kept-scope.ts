import { sql, type SQL } from 'drizzle-orm';
import { clientBrandIds, type ScopeViewer } from '../access/scope.ts';

/**
 * deviceScope's rule (access/scope.ts) for the kept aggregates (migration 0025: site_counts, site_members), whose
 * rows are per site and brand: a distributor reads the whole fleet (`fleet`), a client the rows of its brands
 * (`brands`, a subquery of brand ids) and its own rows (`client`: site_client_members). A market partner's scope is a list of devices, not of brands: null, and
 * its answers are computed from its own devices (user_exclusive_devices' index), which costs its devices,
 * not the fleet.
 */
export type KeptScope = { fleet: true } | { fleet: false; client: number; brands: SQL };

export function keptScope(viewer: ScopeViewer): KeptScope | null {
  switch (viewer.access) {
    case 'distributor':
      return { fleet: true };
    case 'client':
      return {
        fleet: false,
        client: viewer.id,
        brands: clientBrandIds(viewer.id),
      };
    case 'market-partner':
      return null;
  }
}

/** The condition on a kept table's brand column (`column`, raw SQL text of a fixed name) for a scope. */
export const keptBrandIn = (kept: KeptScope, column: string): SQL =>
  kept.fleet ? sql`true` : sql`${sql.raw(column)} in ${kept.brands}`;
