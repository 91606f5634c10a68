import { describe, expect, it } from 'vitest';
import { formatNumber } from './report-files.ts';

describe('PDF numbers read like the spreadsheet', () => {
  it('keeps the format of each column', () => {
    expect(formatNumber(6.5, '#,##0.00')).toBe('6.50');
    expect(formatNumber(1234.567, '#,##0.00')).toBe('1,234.57');
    expect(formatNumber(12345, '#,##0')).toBe('12,345');
    expect(formatNumber(48, '0.0')).toBe('48.0');
    expect(formatNumber('Total', '#,##0')).toBe('Total');
    expect(formatNumber(null, '#,##0')).toBeNull();
    expect(formatNumber(7, undefined)).toBe(7);
  });
});
