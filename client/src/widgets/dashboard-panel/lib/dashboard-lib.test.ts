import { describe, expect, it } from 'vitest';
import type { Device } from '../../../entities/device';
import {
  batchNumbers,
  countyCardName,
  countyRows,
  filterDevices,
  filterTitle,
  geometryBounds,
  partnerCompanies,
  searchIndex,
  searchKey,
  siteRows,
  type ListFilters,
} from './dashboard-lib';

let id = 0;
function device(fields: Partial<Device>): Device {
  id += 1;
  return {
    id,
    serial: `SN${id}`,
    label: `Device ${id}`,
    number: id,
    address: '1 Main St, Metairie, LA',
    location: { lat: 30, lng: -90 },
    location_id: 1,
    location_group: 10,
    brand: 1,
    brand_name: 'Sunny',
    batchNumber: null,
    batch2Number: null,
    batch2: false,
    is_online: true,
    is_pause: false,
    is_warning: false,
    is_maintenance: false,
    is_registration: false,
    battery_percent: 80,
    warning_lists: [],
    market_partners: [],
    ...fields,
  } as Device;
}

const all: ListFilters = { view: 'Total', search: '', brand: null, county: null, partners: [] };

describe('filter views (spec section 4 definitions)', () => {
  const fleet = [
    device({ serial: 'A', is_online: true }),
    device({ serial: 'B', is_online: false }),
    device({ serial: 'C', is_warning: true, warning_lists: ['BATTERY'] }),
    device({ serial: 'D', is_pause: true }),
    device({ serial: 'E', is_maintenance: true }),
    device({ serial: 'F', battery_percent: 49 }),
    device({ serial: 'G', battery_percent: 50 }),
    device({ serial: 'H', battery_percent: null }),
    device({ serial: 'I', is_registration: true, is_online: false }),
  ];
  const serials = (view: ListFilters['view']) => filterDevices(fleet, { ...all, view }).map((d) => d.serial);

  it('each view keeps the devices its rule names', () => {
    expect(serials('Total')).toHaveLength(9);
    expect(serials('ReportList')).toHaveLength(9);
    expect(serials('Offline')).toEqual(['B', 'I']);
    expect(serials('Online')).not.toContain('B');
    expect(serials('Warning')).toEqual(['C']);
    expect(serials('Pause')).toEqual(['D']);
    expect(serials('Maintenance')).toEqual(['E']);
    // Below 50 %; 50 exactly is not low, and no reading is not low either.
    expect(serials('LowBattery')).toEqual(['F']);
    expect(serials('Synced')).toEqual(['I']);
  });

  it('titles the view as the spec does', () => {
    expect(filterTitle('Total')).toBe('Total Devices');
    expect(filterTitle('LowBattery')).toBe('LowBattery Devices');
  });
});

describe('search, brand, county and market partner filters', () => {
  const fleet = [
    device({
      serial: 'AB 12-X',
      label: 'Beach Front',
      brand: 1,
      location_id: 1,
      market_partners: [{ id: 7, company: 'Sun Co' }],
    }),
    device({
      serial: 'ZZ99',
      label: 'Pool  Side',
      brand: 2,
      location_id: 2,
      market_partners: [
        { id: 8, company: 'sun co' },
        { id: 9, company: 'Other' },
      ],
    }),
    device({ serial: 'QQ1', label: '', brand: 2, location_id: 1 }),
  ];
  const run = (f: Partial<ListFilters>) => filterDevices(fleet, { ...all, ...f }).map((d) => d.serial);

  it('matches name or serial ignoring case and white space', () => {
    expect(searchKey(' Ab 12 ')).toBe('ab12');
    expect(run({ search: searchKey('ab12') })).toEqual(['AB 12-X']);
    expect(run({ search: searchKey('poolside') })).toEqual(['ZZ99']);
    expect(run({ search: searchKey('BEACH f') })).toEqual(['AB 12-X']);
    expect(run({ search: searchKey('nothing') })).toEqual([]);
  });

  it('gives the same answer from the precomputed search index', () => {
    const index = searchIndex(fleet);
    for (const text of ['ab12', 'poolside', 'qq', 'x']) {
      expect(filterDevices(fleet, { ...all, search: searchKey(text) }, index)).toEqual(
        filterDevices(fleet, { ...all, search: searchKey(text) }),
      );
    }
    expect(filterDevices(fleet, { ...all, search: 'beach' }, index).map((d) => d.serial)).toEqual(['AB 12-X']);
  });

  it('combines brand, county and partners with the search', () => {
    expect(run({ brand: 2 })).toEqual(['ZZ99', 'QQ1']);
    expect(run({ brand: 2, county: 1 })).toEqual(['QQ1']);
    expect(run({ partners: ['other'] })).toEqual(['ZZ99']);
    expect(run({ partners: ['sun co'] })).toEqual(['AB 12-X', 'ZZ99']);
    expect(run({ partners: ['sun co'], county: 2, search: 'zz' })).toEqual(['ZZ99']);
  });

  it('groups market-partner companies by name ignoring case', () => {
    const companies = partnerCompanies(fleet);
    expect(companies.map((c) => [c.company, c.deviceCount])).toEqual([
      ['Other', 1],
      ['Sun Co', 2],
    ]);
    expect(companies.find((c) => c.key === 'sun co')!.serials).toEqual(['AB 12-X', 'ZZ99']);
  });
});

describe('county and site roll-ups', () => {
  const names = new Map([
    [1, 'Jefferson'],
    [2, 'Orleans'],
  ]);
  const fleet = [
    device({ location_id: 2, location_group: 5, is_online: true, batchNumber: 'B-7' }),
    device({
      location_id: 1,
      location_group: 3,
      is_online: false,
      is_warning: true,
      number: 2,
      batchNumber: 'B-2',
      batch2Number: 'B-10',
    }),
    device({ location_id: 1, location_group: 3, is_online: true, number: 1, batchNumber: 'B-2' }),
    device({ location_id: 1, location_group: 4, address: 'Levee Rd, Harahan, LA', is_online: true }),
  ];

  it('counts total, online, offline and warning per county, by name', () => {
    expect(countyRows(fleet, names)).toEqual([
      { id: 1, name: 'Jefferson', total: 3, online: 2, offline: 1, warning: 1 },
      { id: 2, name: 'Orleans', total: 1, online: 1, offline: 0, warning: 0 },
    ]);
  });

  it('the Batch filter keeps devices fed by that batch on either pump', () => {
    expect(countyRows(fleet, names, 'B-10')).toEqual([{ id: 1, name: 'Jefferson', total: 1, online: 0, offline: 1, warning: 1 }]);
    expect(batchNumbers(fleet)).toEqual(['B-2', 'B-7', 'B-10']);
  });

  it('drills into a county: its sites with devices by number', () => {
    const sites = siteRows(fleet, 1);
    expect(sites.map((s) => [s.id, s.total, s.serials.length])).toEqual([
      [3, 2, 2],
      [4, 1, 1],
    ]);
    const site3 = sites.find((s) => s.id === 3)!;
    expect(site3.serials[0]).toBe(fleet[2]!.serial);
    expect(sites.find((s) => s.id === 4)!.name).toBe('Levee Rd');
  });

  it('cuts county names to 47 characters plus ... beyond 50', () => {
    expect(countyCardName('x'.repeat(50))).toBe('x'.repeat(50));
    expect(countyCardName('y'.repeat(51))).toBe(`${'y'.repeat(47)}...`);
  });

  it('bounds a multipolygon', () => {
    expect(
      geometryBounds({
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [-90.5, 29.9],
              [-90.1, 30.2],
              [-90.3, 29.8],
            ],
          ],
          [[[-89.9, 30.4]]],
        ],
      }),
    ).toEqual([
      [-90.5, 29.8],
      [-89.9, 30.4],
    ]);
    expect(geometryBounds({ type: 'Polygon', coordinates: [] })).toBeNull();
  });
});
