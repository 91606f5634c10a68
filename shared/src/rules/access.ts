import type { Role, UserType } from '../constants.ts';

/**
 * What a signed-in user may see and do, derived from role and user_type (spec sections 1 and 6):
 * - distributor: every device, every management action;
 * - client: only devices of brands assigned to it;
 * - market-partner (user_type): only its exclusive devices, whatever its role says.
 * The server scopes every query by this; the client only uses it to hide controls.
 */
export type AccessLevel = 'distributor' | 'client' | 'market-partner';

export function accessLevel(user: { role: Role | string; user_type: UserType | string | null }): AccessLevel {
  if (user.user_type === 'market-partner') return 'market-partner';
  if (user.role === 'distributor') return 'distributor';
  return 'client';
}
