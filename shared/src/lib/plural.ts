import { formatNumber } from './format-number.ts';

/**
 * A count with its noun, the singular for exactly one and the plural otherwise, the count written with
 * thousands separators: plural(1, 'device') '1 device', plural(12345, 'device') '12,345 devices',
 * plural(2, 'company', 'companies'). Verbs that agree with the count take `pluralWord`:
 * `${plural(n, 'device')} now ${pluralWord(n, 'belongs', 'belong')} to ...`. One helper for every message
 * (before, each wrote its own test and several wrote '1 device now belong to').
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${pluralWord(count, one, many)}`;
}

/** The singular for exactly one, else the plural (no number): pluralWord(1, 'is', 'are') 'is'. */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}
