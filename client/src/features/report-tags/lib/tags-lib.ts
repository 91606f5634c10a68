/** Pure helpers of the Report List's device lists and tags. */
export type ListDevice = { serial: string; label?: string | null; brand: number | null; location_id: number | null };

/** Spec section 2: counts of Devices, Brands and Counties of a device list (devices no longer visible are not counted). */
export function listCounts(serials: readonly string[], devices: Readonly<Record<string, ListDevice>>) {
  const brands = new Set<number>();
  const counties = new Set<number>();
  let count = 0;
  for (const serial of serials) {
    const device = devices[serial];
    if (!device) continue;
    count++;
    if (device.brand != null) brands.add(device.brand);
    if (device.location_id != null) counties.add(device.location_id);
  }
  return { devices: count, brands: brands.size, counties: counties.size };
}

/** The same serials, whatever the order. */
export function sameSerials(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((s) => set.has(s));
}

export function toggleSerial(list: readonly string[], serial: string): string[] {
  return list.includes(serial) ? list.filter((s) => s !== serial) : [...list, serial];
}

/** Select All adds the rows on view to the picked ones; Clear All removes them (a search narrows both). */
export function selectAll(list: readonly string[], visible: readonly string[]): string[] {
  const set = new Set(list);
  return [...list, ...visible.filter((s) => !set.has(s))];
}
export function clearAll(list: readonly string[], visible: readonly string[]): string[] {
  const set = new Set(visible);
  return list.filter((s) => !set.has(s));
}

/** The Advance Filter's search: label or serial, ignoring case and white space (like the filter lists). */
export function matchesSearch(device: { serial: string; label?: string | null }, search: string): boolean {
  const key = search.replace(/\s+/g, '').toLowerCase();
  if (!key) return true;
  return device.serial.toLowerCase().includes(key) || (device.label ?? '').replace(/\s+/g, '').toLowerCase().includes(key);
}
