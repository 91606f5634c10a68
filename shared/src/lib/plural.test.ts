import { describe, expect, it } from 'vitest';
import { plural, pluralWord } from './plural.ts';

describe('plural', () => {
  it('takes the singular for exactly one, the plural otherwise, with the count grouped', () => {
    expect(plural(1, 'device')).toBe('1 device');
    expect(plural(0, 'device')).toBe('0 devices');
    expect(plural(2, 'device')).toBe('2 devices');
    expect(plural(204536, 'dispense')).toBe('204,536 dispenses');
    expect(plural(1, 'company', 'companies')).toBe('1 company');
    expect(plural(3, 'company', 'companies')).toBe('3 companies');
  });

  it('agrees a verb with the count', () => {
    expect(`${plural(1, 'device')} now ${pluralWord(1, 'belongs', 'belong')} to Acme.`).toBe('1 device now belongs to Acme.');
    expect(`${plural(4, 'device')} now ${pluralWord(4, 'belongs', 'belong')} to Acme.`).toBe('4 devices now belong to Acme.');
    expect(pluralWord(1, 'moves', 'move')).toBe('moves');
  });
});
