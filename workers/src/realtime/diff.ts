/**
 * What changed between two snapshots of one subject, so nothing is emitted when nothing changed.
 * Objects compare field by field (deep, order-insensitive for object keys); the patch holds the new
 * values of the top-level fields that differ.
 */
export function diffFields(
  prev: Record<string, unknown> | undefined,
  next: Record<string, unknown>,
): Record<string, unknown> | null {
  if (!prev) return null;
  const patch: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(prev), ...Object.keys(next)])) {
    if (!deepEqual(prev[key], next[key])) patch[key] = next[key] ?? null;
  }
  return Object.keys(patch).length ? patch : null;
}

/** Rows of a newest-first log that were not in the previous snapshot (by their content and time). */
export function appendedRows<T extends Record<string, unknown>>(prev: T[] | undefined, next: T[], key: (row: T) => string): T[] {
  if (!prev) return [];
  const seen = new Set(prev.map(key));
  return next.filter((r) => !seen.has(key(r)));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
