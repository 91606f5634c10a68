/** Pure helpers of the Report List's device lists and tags. */
/** The same serials, whatever the order. */
export function sameSerials(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((s) => set.has(s));
}
