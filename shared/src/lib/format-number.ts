/**
 * A number as `Intl.NumberFormat('en-US', { maximumFractionDigits })` writes it: thousands separated by
 * commas, at most that many decimals, trailing zeros dropped, rounded half away from zero on the number's
 * shortest decimal form (as ICU does: 1.005 is "1.01", where `toFixed(2)`, which reads the binary value,
 * says "1.00"). Without Intl: a page's first NumberFormat starts ICU's number formatting, 5-33 ms in
 * Chromium on the bench host (a fresh page each time; 20-130 ms under Lighthouse's 4x CPU slowdown), and
 * the map page made its first one while its chunk was evaluated, inside one of its longest tasks.
 * For finite numbers below 1e21 (counts and volumes); others as String() writes them.
 */
export function formatNumber(value: number, maxFractionDigits = 0): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  const shortest = String(Math.abs(value));
  // Below 1e-6 JavaScript writes an exponent; such a number has no digit within three decimals but a 0.
  let [whole = '0', fraction = ''] = (shortest.includes('e') ? Math.abs(value).toFixed(maxFractionDigits) : shortest).split('.');
  if (fraction.length > maxFractionDigits) {
    const up = fraction[maxFractionDigits]! >= '5';
    fraction = fraction.slice(0, maxFractionDigits);
    if (up) {
      // One unit up in the last kept digit, carried through the fraction and the whole part.
      const digits = (whole + fraction).split('');
      let at = digits.length - 1;
      while (at >= 0 && digits[at] === '9') digits[at--] = '0';
      if (at >= 0) digits[at] = String(Number(digits[at]) + 1);
      else digits.unshift('1');
      whole = digits.slice(0, digits.length - fraction.length).join('');
      fraction = digits.slice(digits.length - fraction.length).join('');
    }
  }
  fraction = fraction.replace(/0+$/, '');
  const negative = value < 0 || Object.is(value, -0);
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}
