import { companyKey, matchesDeviceFilter, type PartnerUser } from '@fleet/shared';

export type PickerDevice = { serial: string; label: string; address: string };
export type PartnerCompany = { key: string; name: string; users: PartnerUser[]; deviceCount: number };

/**
 * Market-partner companies as the spec groups them: by company name ignoring case (and spaces around it),
 * named as most of its users write it (on a tie, as its oldest account does); companies by name, users by name.
 */
export function partnerCompanies(users: readonly PartnerUser[]): PartnerCompany[] {
  const byKey = new Map<string, PartnerUser[]>();
  for (const u of users) {
    if (u.user_type !== 'market-partner') continue;
    const key = companyKey(u.company);
    const list = byKey.get(key) ?? [];
    list.push(u);
    byKey.set(key, list);
  }
  return [...byKey.entries()]
    .map(([key, list]) => ({
      key,
      name: commonest([...list].sort((a, b) => a.id - b.id).map((u) => u.company.trim())) || 'No company',
      users: [...list].sort((a, b) => a.name.localeCompare(b.name)),
      deviceCount: new Set(list.flatMap((u) => u.exclusive_device_serials)).size,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The spelling most users write; on a tie, the oldest account's (names come oldest first). */
function commonest(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best = '';
  for (const [name, n] of counts) if (n > (counts.get(best) ?? 0)) best = name;
  return best;
}

/**
 * Devices matching a search of name, serial or address (ignoring case and spaces: devicePage's `search`, the
 * shared rule the server applies), not already the user's.
 */
export function pickerMatches(devices: readonly PickerDevice[], query: string, exclude: ReadonlySet<string>): PickerDevice[] {
  return devices
    .filter((d) => !exclude.has(d.serial) && matchesDeviceFilter({ search: query }, d))
    .sort((a, b) => a.serial.localeCompare(b.serial));
}
