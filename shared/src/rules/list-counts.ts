/** The Devices, Brands and Counties of a device list (spec section 2: the Report List card and the report's header). */
export type ListCounts = { devices: number; brands: number; counties: number };

/**
 * The one counting rule of a device list's counts: its devices, the distinct brands they are of and the
 * distinct counties of their sites; a device of no brand, or of a site in no county, adds no brand or county.
 * `rows` are devices, or groups of `n` devices alike in brand and county (the database's grouped answer).
 */
export function listCounts(rows: readonly { brand: number | null; county: number | null; n?: number }[]): ListCounts {
  const brands = new Set<number>();
  const counties = new Set<number>();
  let devices = 0;
  for (const row of rows) {
    devices += row.n ?? 1;
    if (row.brand != null) brands.add(row.brand);
    if (row.county != null) counties.add(row.county);
  }
  return { devices, brands: brands.size, counties: counties.size };
}
