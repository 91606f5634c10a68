import { describe, expect, it } from 'vitest';
import { searchKey } from './search-key.ts';

describe('searchKey', () => {
  it('drops every white space and lower-cases', () => {
    expect(searchKey(' Ab 12 ')).toBe('ab12');
    expect(searchKey('BEACH\tF\nx')).toBe('beachfx');
    expect(searchKey('   ')).toBe('');
  });
});
