import { describe, expect, it } from 'vitest';
import { gmtLabel } from './lib';

describe('clock panel', () => {
  it('writes the GMT offset with its sign and hours: GMT+0, GMT-6, GMT+5:30', () => {
    expect(gmtLabel(0)).toBe('GMT+0');
    expect(gmtLabel(-360)).toBe('GMT-6');
    expect(gmtLabel(-300)).toBe('GMT-5');
    expect(gmtLabel(330)).toBe('GMT+5:30');
    expect(gmtLabel(-570)).toBe('GMT-9:30');
    expect(gmtLabel(780)).toBe('GMT+13');
  });
});
