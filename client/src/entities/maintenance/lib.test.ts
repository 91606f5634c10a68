import { describe, expect, it } from 'vitest';
import type { MaintenanceDevice } from '@fleet/shared';
import { actionsText, navigateUrl, needsOf, serialFromCode } from './lib';

const device = (over: Partial<MaintenanceDevice>): MaintenanceDevice => ({
  serial: 'SP1',
  label: 'Beach',
  number: 1,
  brand_id: null,
  site: { id: 1, name: 'Beach', address: '1 Main St', timezone_id: 'America/Chicago' },
  is_maintenance: false,
  is_online: true,
  battery_percent: 80,
  low_battery: false,
  warning_lists: [],
  reasons: [],
  pumps: [],
  runs_out_in_days: null,
  last_record: null,
  ...over,
});

describe('needsOf', () => {
  it('reads warnings in words and does not repeat what they say', () => {
    const d = device({
      is_maintenance: true,
      warning_lists: ['BATTERY', 'LEFT_PUMP_VOLUME'],
      low_battery: true,
      battery_percent: 20,
      pumps: [
        {
          pump: 1,
          pump_type: 'Sunscreen',
          volume_remain: 100,
          low_fluid: true,
          batch: { id: 1, batch_no: 'B-7', status: 'ALMOST_EXPIRED', is_recalled: false, expire_date: '2026-12-01' },
          forecast: { kind: 'not-enough-data', basisDays: 0, basis: '' },
          forecast_text: 'not enough data',
        },
      ],
    });
    expect(needsOf(d)).toEqual(['In maintenance', 'Low battery', 'Left pump fluid low', 'Batch B-7: Almost Expire']);
  });
  it('names actions in words', () => {
    expect(actionsText(['refilled', 'batch_replaced'])).toBe('Refilled, Batch replaced');
  });
});

describe('serialFromCode', () => {
  it("reads the label's link, a bare serial or a typed one; nothing from a link naming no device", () => {
    expect(serialFromCode('https://portal.example.com/maintenance?device=SP240001')).toBe('SP240001');
    expect(serialFromCode('http://127.0.0.1:3000/maintenance?device=SP%2F7')).toBe('SP/7');
    expect(serialFromCode('  SP240002 ')).toBe('SP240002');
    expect(serialFromCode('https://example.com/')).toBeNull();
    expect(serialFromCode('   ')).toBeNull();
  });
  it('navigates to the stop by coordinates', () => {
    expect(navigateUrl({ lat: 29.9511, lng: -90.0715 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=29.951100,-90.071500&travelmode=driving',
    );
  });
});
