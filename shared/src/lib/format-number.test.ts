import { describe, expect, it } from 'vitest';
import { formatNumber } from './format-number.ts';

describe('formatNumber', () => {
  it('writes counts and volumes as en-US Intl.NumberFormat does', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(10000)).toBe('10,000');
    expect(formatNumber(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatNumber(12.5, 2)).toBe('12.5');
    expect(formatNumber(12.0, 2)).toBe('12');
    expect(formatNumber(0.125, 2)).toBe('0.13');
    expect(formatNumber(1.005, 2)).toBe('1.01');
    expect(formatNumber(9.999, 2)).toBe('10');
    expect(formatNumber(999999.995, 2)).toBe('1,000,000');
  });

  it('agrees with Intl.NumberFormat on 20,000 numbers: integers, decimals, ties, negatives', () => {
    const formats = [0, 1, 2, 3].map(
      (digits) => [digits, new Intl.NumberFormat('en-US', { maximumFractionDigits: digits })] as const,
    );
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [
      -0, 0.005, 1.005, 2.675, 1e15, 999999.995, -1234.5, 0.5, 1.5, 2.5, 1e-7, -1e-7, 0.0004999, 123456789012.3456,
    ];
    for (let i = 0; i < 5000; i++) {
      values.push(Math.floor(random() * 10 ** Math.floor(random() * 13)));
      values.push(random() * 10 ** Math.floor(random() * 9));
      values.push(Math.round(random() * 100000) / 1000 + 0.0005);
      values.push(-random() * 10 ** Math.floor(random() * 7));
    }
    for (const value of values)
      for (const [digits, format] of formats)
        expect(formatNumber(value, digits), `${value} to ${digits}`).toBe(format.format(value));
  });
});
