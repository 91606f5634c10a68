import { describe, expect, it } from 'vitest';
import { listCounts } from './list-counts.ts';

describe('the counts of a device list', () => {
  it('counts devices, distinct brands and distinct counties; no brand or county adds none', () => {
    expect(listCounts([])).toEqual({ devices: 0, brands: 0, counties: 0 });
    const a = { brand: 1, county: 10 };
    const c = { brand: 2, county: 11 };
    const none = { brand: null, county: null };
    expect(listCounts([a, a])).toEqual({ devices: 2, brands: 1, counties: 1 });
    expect(listCounts([a, c, none])).toEqual({ devices: 3, brands: 2, counties: 2 });
    expect(
      listCounts([
        { brand: 1, county: null },
        { brand: null, county: 11 },
      ]),
    ).toEqual({ devices: 2, brands: 1, counties: 1 });
  });

  it('takes groups of alike devices as the database answers them', () => {
    expect(
      listCounts([
        { ...{ brand: 1, county: 10 }, n: 5 },
        { brand: null, county: 10, n: 2 },
      ]),
    ).toEqual({
      devices: 7,
      brands: 1,
      counties: 1,
    });
  });
});
