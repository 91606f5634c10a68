/**
 * The smallest town named at a spec zoom: only big cities zoomed out, every town (the gazetteer holds
 * those of 1000 inhabitants and more) from zoom 12.
 */
export function minPopulationAt(zoom: number): number {
  if (zoom < 6) return 500_000;
  if (zoom < 7) return 200_000;
  if (zoom < 8) return 80_000;
  if (zoom < 9) return 30_000;
  if (zoom < 10) return 10_000;
  if (zoom < 11) return 4_000;
  if (zoom < 12) return 2_000;
  return 0;
}
