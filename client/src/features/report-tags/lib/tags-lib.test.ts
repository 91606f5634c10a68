import { describe, expect, it } from 'vitest';
import { clearAll, listCounts, matchesSearch, sameSerials, selectAll, toggleSerial } from './tags-lib';

const devices = {
  A: { serial: 'A', label: 'Audubon Park 1', brand: 1, location_id: 10 },
  B: { serial: 'B', label: 'Audubon Park 2', brand: 1, location_id: 10 },
  C: { serial: 'C', label: 'City Park', brand: 2, location_id: 11 },
  D: { serial: 'D', label: 'Unbranded', brand: null, location_id: null },
};

describe('report tag lists', () => {
  it('counts devices, distinct brands and counties, skipping serials not in view', () => {
    expect(listCounts([], devices)).toEqual({ devices: 0, brands: 0, counties: 0 });
    expect(listCounts(['A', 'B'], devices)).toEqual({ devices: 2, brands: 1, counties: 1 });
    expect(listCounts(['A', 'C', 'D', 'GONE'], devices)).toEqual({ devices: 3, brands: 2, counties: 2 });
  });

  it('toggles, selects and clears the visible rows only', () => {
    expect(toggleSerial(['A'], 'B')).toEqual(['A', 'B']);
    expect(toggleSerial(['A', 'B'], 'A')).toEqual(['B']);
    expect(selectAll(['C'], ['A', 'B', 'C'])).toEqual(['C', 'A', 'B']);
    expect(clearAll(['A', 'B', 'C'], ['A', 'B'])).toEqual(['C']);
  });

  it('compares lists as sets and searches label or serial ignoring case and spaces', () => {
    expect(sameSerials(['A', 'B'], ['B', 'A'])).toBe(true);
    expect(sameSerials(['A'], ['A', 'B'])).toBe(false);
    expect(matchesSearch(devices.A, 'auduBONpark')).toBe(true);
    expect(matchesSearch(devices.C, 'c')).toBe(true);
    expect(matchesSearch(devices.C, 'zz')).toBe(false);
    expect(matchesSearch(devices.C, '  ')).toBe(true);
  });
});
