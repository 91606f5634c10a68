import { describe, expect, it } from 'vitest';
import { sameSerials } from './tags-lib';

describe('report tag lists', () => {
  it('compares lists as sets', () => {
    expect(sameSerials(['A', 'B'], ['B', 'A'])).toBe(true);
    expect(sameSerials(['A'], ['A', 'B'])).toBe(false);
  });
});
