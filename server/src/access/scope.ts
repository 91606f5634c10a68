import { inArray, sql, type SQL } from 'drizzle-orm';
import { accessLevel, type AccessLevel } from '@fleet/shared';
import { brandClients, devices, userExclusiveDevices } from '../db/schema.ts';

export type ScopeViewer = { id: number; access: AccessLevel };

/** The access level of a users row (role and user_type, shared/src/rules/access.ts). */
export const accessOf = (user: { role: string; userType: string | null }): AccessLevel =>
  accessLevel({ role: user.role, user_type: user.userType });

/** The brands assigned to a client (brand_clients), as a subquery: a client's devices are those of these brands. */
export const clientBrandIds = (userId: number): SQL =>
  sql`(select ${brandClients.brandId} from ${brandClients} where ${brandClients.userId} = ${userId})`;

/**
 * The one rule for which devices a caller may see (spec sections 1 and 6), as a condition on `devices`:
 * - distributor: every device;
 * - client: devices whose brand is assigned to it;
 * - market-partner: its exclusive devices.
 * Every endpoint that reads or writes devices (and what hangs off them: sites, batches in use,
 * telemetry, reports, socket rooms) filters with this, so nothing relies on the client hiding things.
 */
export function deviceScope(viewer: ScopeViewer): SQL | undefined {
  switch (viewer.access) {
    case 'distributor':
      return undefined;
    case 'client':
      return inArray(devices.brandId, clientBrandIds(viewer.id));
    case 'market-partner':
      return inArray(
        devices.id,
        sql`(select ${userExclusiveDevices.deviceId} from ${userExclusiveDevices} where ${userExclusiveDevices.userId} = ${viewer.id})`,
      );
  }
}

/**
 * The same rule as deviceScope on the kept counts (device_counts, one row per brand and county): a condition
 * on `device_counts.brand_id`, `true` for the whole fleet; null when the scope is not a set of brands (a
 * market partner's exclusive devices), which the kept counts cannot answer.
 */
export function brandCountsScope(viewer: ScopeViewer): SQL | null {
  switch (viewer.access) {
    case 'distributor':
      return sql`true`;
    case 'client':
      return sql`device_counts.brand_id in ${clientBrandIds(viewer.id)}`;
    case 'market-partner':
      return null;
  }
}

/** True when the caller may manage the whole fleet (users, brands, batches, provisioning). */
export function isDistributor(viewer: ScopeViewer): boolean {
  return viewer.access === 'distributor';
}
