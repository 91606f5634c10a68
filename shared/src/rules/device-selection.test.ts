import { describe, expect, it } from 'vitest';
import {
  clearAllPicks,
  isPicked,
  localPicks,
  matchesDeviceFilter,
  picksOf,
  selectAllPicks,
  selectionOfPicks,
  togglePick,
} from './device-selection.ts';

const A = {
  serial: 'SP-0001',
  label: 'Audubon Park 1',
  brand: 1,
  location_id: 10,
  location_group: 100,
  address: 'Pier 1',
  is_online: true,
  battery_percent: 20,
};
const B = {
  serial: 'SP-0002',
  label: 'Audubon Park 2',
  brand: null,
  location_id: 10,
  location_group: 101,
  address: 'Park',
  is_online: false,
  battery_percent: 80,
};
const C = {
  serial: 'SP-0003',
  label: 'City Park',
  brand: 2,
  location_id: 11,
  location_group: 102,
  address: 'Park',
  is_online: true,
  battery_percent: null,
};
const ALL = [A, B, C];
const picked = (picks: Parameters<typeof isPicked>[0]) => ALL.filter((d) => isPicked(picks, d)).map((d) => d.serial);

describe('device selection rules', () => {
  it('a filter matches as the server does: search ignoring case and white space, brand, no brand, not brand, county, address, status', () => {
    const hits = (filter: Parameters<typeof matchesDeviceFilter>[0]) =>
      ALL.filter((d) => matchesDeviceFilter(filter, d)).map((d) => d.serial);
    expect(hits({})).toEqual(['SP-0001', 'SP-0002', 'SP-0003']);
    expect(hits({ q: 'audubon PARK' })).toEqual(['SP-0001', 'SP-0002']);
    expect(hits({ q: 'sp-0003' })).toEqual(['SP-0003']);
    expect(hits({ brand: 2 })).toEqual(['SP-0003']);
    expect(hits({ noBrand: true })).toEqual(['SP-0002']);
    expect(hits({ notBrand: 1 })).toEqual(['SP-0002', 'SP-0003']);
    expect(hits({ county: 10, address: 'Park' })).toEqual(['SP-0002']);
    expect(hits({ status: 'low-battery' })).toEqual(['SP-0001']);
    expect(hits({ status: 'offline' })).toEqual(['SP-0002']);
    expect(hits({ site: 101 })).toEqual(['SP-0002']);
  });

  it("search is q's rule over the label, serial and address too (the exclusive picker's search)", () => {
    const hits = (filter: Parameters<typeof matchesDeviceFilter>[0]) =>
      ALL.filter((d) => matchesDeviceFilter(filter, d)).map((d) => d.serial);
    expect(hits({ search: 'PIER 1' })).toEqual(['SP-0001']);
    expect(hits({ q: 'pier' })).toEqual([]);
    expect(hits({ search: 'city' })).toEqual(['SP-0003']);
    expect(hits({ search: 'sp-0002' })).toEqual(['SP-0002']);
    // A key has no white space: it never matches across the end of the serial and the start of the address.
    expect(hits({ search: '0001pier' })).toEqual([]);
  });

  it('steps apply in order, toggles after them; Select All of a search is one step, never its serials', () => {
    let picks = togglePick(picksOf(['SP-0003']), C);
    expect(picked(picks)).toEqual([]);
    expect(localPicks(picks)).toEqual([]);
    picks = selectAllPicks(picks, { q: 'audubon' });
    expect(selectionOfPicks(picks)).toEqual({
      steps: [
        { op: 'add', serials: ['SP-0003'] },
        { op: 'remove', serials: ['SP-0003'] },
        { op: 'select', filter: { q: 'audubon' } },
      ],
    });
    expect(localPicks(picks)).toBeNull();
    expect(picked(picks)).toEqual(['SP-0001', 'SP-0002']);
    picks = togglePick(picks, A);
    expect(picked(picks)).toEqual(['SP-0002']);
    picks = clearAllPicks(picks, { q: 'park 2' });
    expect(picked(picks)).toEqual([]);
    picks = selectAllPicks(picks, {});
    expect(selectionOfPicks(picks)).toEqual({ steps: [{ op: 'select', filter: {} }] });
    expect(picked(picks)).toEqual(['SP-0001', 'SP-0002', 'SP-0003']);
    expect(clearAllPicks(picks, {})).toEqual(picksOf([]));
  });
});
