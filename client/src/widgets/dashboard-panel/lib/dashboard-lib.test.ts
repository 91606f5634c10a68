import { describe, expect, it } from 'vitest';
import type { Device } from '../../../entities/device';
import type { RollupRow } from '@fleet/shared';
import { countyRowsOf } from '../../../entities/county';
import {
  batchNumbersOf,
  countyCardName,
  filterTitle,
  geometryBounds,
  partnerCompaniesOf,
  pageFilterOf,
  searchKey,
  seenPartners,
  siteRowsOf,
  typedOnly,
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

describe('filter views ask the server (spec section 4 definitions, GET /api/v1/devicePage)', () => {
  it('each view asks for its status; Total, ReportList and ServiceDay for every device', () => {
    expect(pageFilterOf(all)).toEqual({});
    expect(pageFilterOf({ ...all, view: 'ReportList' })).toEqual({});
    expect(pageFilterOf({ ...all, view: 'ServiceDay' })).toEqual({});
    expect(pageFilterOf({ ...all, view: 'Offline' })).toEqual({ status: 'offline' });
    expect(pageFilterOf({ ...all, view: 'LowBattery' })).toEqual({ status: 'low-battery' });
    expect(pageFilterOf({ ...all, view: 'Synced' })).toEqual({ status: 'synced' });
    expect(pageFilterOf({ ...all, view: 'Pause' })).toEqual({ status: 'pause' });
  });

  it('titles the view as the spec does', () => {
    expect(filterTitle('Total')).toBe('Total Devices');
    expect(filterTitle('LowBattery')).toBe('LowBattery Devices');
  });

  it('sends the search without white space and in lower case, and the chosen brand, county and partners', () => {
    expect(searchKey(' Ab 12 ')).toBe('ab12');
    expect(
      pageFilterOf({ ...all, view: 'Warning', search: searchKey('AB 12'), brand: 2, county: 1, partners: ['sun co'] }),
    ).toEqual({
      status: 'warning',
      q: 'ab12',
      brand: 2,
      county: 1,
      partner: 'sun co',
    });
    // Several partners in one value, in one order whatever the order they were ticked in.
    expect(pageFilterOf({ ...all, partners: ['other', 'sun co'] })).toEqual(
      pageFilterOf({ ...all, partners: ['sun co', 'other'] }),
    );
    expect(pageFilterOf({ ...all, partners: ['other', 'sun co'] }).partner).toBe('other|sun co');
  });

  it('tells typing (read once it settles) from a filter chosen (read at once)', () => {
    expect(typedOnly({ status: 'online' }, { status: 'online', q: 'a' })).toBe(true);
    expect(typedOnly({ status: 'online', q: 'a' }, { status: 'online', q: 'ab' })).toBe(true);
    expect(typedOnly({ status: 'online', q: 'a' }, { status: 'offline', q: 'a' })).toBe(false);
    expect(typedOnly(null, { q: 'a' })).toBe(false);
  });

  it('collects the market-partner companies of the rows read, one per name ignoring case', () => {
    const rows = [
      device({ market_partners: [{ id: 7, company: 'Sun Co' }] }),
      device({
        market_partners: [
          { id: 8, company: 'sun co ' },
          { id: 9, company: 'Other' },
        ],
      }),
    ];
    const seen = seenPartners([], rows);
    expect(seen.map((c) => c.company)).toEqual(['Other', 'Sun Co']);
    expect(seenPartners(seen, rows)).toBe(seen);
  });
});

/** A roll-up row as GET /api/v1/deviceRollup answers it. */
const row = (key: string, fields: Partial<RollupRow> = {}): RollupRow => ({
  key,
  name: key,
  address: null,
  serial: null,
  label: null,
  total: 1,
  online: 1,
  offline: 0,
  warning: 0,
  ...fields,
});

describe('the Market Partner tab', () => {
  it("lists the server's companies (grouped there ignoring case) by name, with their device counts", () => {
    const companies = partnerCompaniesOf([row('sun co', { name: 'Sun Co', total: 2 }), row('other', { name: 'Other' })]);
    expect(companies).toEqual([
      { key: 'other', company: 'Other', deviceCount: 1 },
      { key: 'sun co', company: 'Sun Co', deviceCount: 2 },
    ]);
  });
});

describe('county and site cards from the roll-ups', () => {
  const names = new Map([
    [1, 'Jefferson'],
    [2, 'Orleans'],
  ]);

  it('names counties as the outlines do (else the server, else the id), sorted by name', () => {
    expect(
      countyRowsOf(
        [
          row('2', { name: 'Orleans Parish', total: 1 }),
          row('1', { name: '', total: 3, online: 2, offline: 1, warning: 1 }),
          row('9', { name: 'Acadia', total: 1 }),
          row('8', { name: '', total: 1 }),
        ],
        names,
      ),
    ).toEqual([
      { id: 9, name: 'Acadia', total: 1, online: 1, offline: 0, warning: 0 },
      { id: 8, name: 'County 8', total: 1, online: 1, offline: 0, warning: 0 },
      { id: 1, name: 'Jefferson', total: 3, online: 2, offline: 1, warning: 1 },
      { id: 2, name: 'Orleans', total: 1, online: 1, offline: 0, warning: 0 },
    ]);
  });

  it('sorts batch numbers as numbers within text', () => {
    expect(batchNumbersOf([row('B-10'), row('B-2'), row('B-7')])).toEqual(['B-2', 'B-7', 'B-10']);
  });

  it("names a site by its first device's address up to the comma, else its label, else NoName; it opens that device", () => {
    const sites = siteRowsOf([
      row('4', { address: 'Levee Rd, Harahan, LA', serial: 'D4', label: 'Dock' }),
      row('3', { address: '', serial: 'C3', label: 'Pier', total: 2, online: 1, offline: 1 }),
      row('5', { address: null, serial: 'E5', label: null }),
    ]);
    expect(sites.map((s) => [s.id, s.name, s.serial, s.total])).toEqual([
      [4, 'Levee Rd', 'D4', 1],
      [5, 'NoName', 'E5', 1],
      [3, 'Pier', 'C3', 2],
    ]);
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
