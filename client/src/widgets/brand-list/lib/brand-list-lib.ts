import type { BrandAnswer } from '@fleet/shared';

const key = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/** The 'Name' search: a brand whose name holds the text, ignoring case and white space; sorted by name. */
export function searchBrands(brands: readonly BrandAnswer[], search: string): BrandAnswer[] {
  const k = key(search);
  return brands.filter((b) => !k || key(b.name).includes(k)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Up to two initials for a brand with no logo ('Gulf Shield SPF' -> 'GS'). */
export function brandInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}
