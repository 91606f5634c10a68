import { describe, expect, it } from 'vitest';
import { fakeDevice } from '../../../entities/device/lib/fake-device';
import { rowCache, siteTime, statusReport, zoneNote, type BatchInfo, type Site } from './status-report';

const sites = new Map<number, Site>([
  [1, { id: 1, name: 'Audubon Park', address: '6500 Magazine St', timezone_id: 'America/Chicago' }],
]);
const batches = new Map<string, BatchInfo>([
  ['B-1', { batchNumber: 'B-1', status: 'IN_USE', is_recalled: false }],
  ['B-2', { batchNumber: 'B-2', status: 'ALMOST_EXPIRED', is_recalled: true }],
]);

describe('status report', () => {
  it('groups per county with counts, warnings in words, fluids, batches and check-in in the site zone', () => {
    const devices = [
      fakeDevice('A', {
        label: 'Gate',
        location_id: 7,
        location_group: 1,
        is_online: true,
        warning_lists: ['BATTERY', 'LEFT_PUMP_VOLUME'],
        battery_percent: 31,
        volume_remain: 200,
        left_pump_type: 'Sunscreen',
        right_pump_type: 'Sanitizer',
        batch2: true,
        volume_remain2: 900,
        batchNumber: 'B-1',
        batch2Number: 'B-2',
        next_wakeup_time: '2026-03-01T18:00:00Z',
      }),
      fakeDevice('B', {
        location_id: 7,
        location_group: 1,
        is_online: false,
        is_registration: false,
        is_pause: true,
        warning_lists: [],
        battery_percent: 80,
      }),
      fakeDevice('C', {
        location_id: null,
        location_group: 2,
        is_online: false,
        is_registration: true,
        last_seen_at: '2026-03-01T12:00:00Z',
      }),
    ];
    const report = statusReport(devices, new Map([[7, 'Orleans']]), sites, batches);
    expect(report.counts).toMatchObject({
      total: 3,
      online: 1,
      offline: 1,
      registering: 1,
      warning: 1,
      paused: 1,
      lowBattery: 1,
    });
    expect(report.counties.map((c) => [c.name, c.counts.total])).toEqual([
      ['Orleans', 2],
      ['No county', 1],
    ]);
    const gate = report.counties[0]!.rows[0]!;
    expect(gate.name).toBe('Gate');
    expect(gate.warnings).toEqual(['Low battery', 'Left pump fluid low']);
    expect(gate.fluids).toEqual([
      { side: 'Left', type: 'Sunscreen', tsp: 40, low: true, empty: false },
      { side: 'Right', type: 'Sanitizer', tsp: 180, low: false, empty: false },
    ]);
    expect(gate.batches).toEqual([
      { side: 'Left', number: 'B-1', label: 'In Use', tone: 'ok' },
      { side: 'Right', number: 'B-2', label: 'Recalled', tone: 'bad' },
    ]);
    expect(gate.checkIn).toEqual({ label: 'Next check-in due', at: '2026-03-01T18:00:00Z' });
    expect(gate.timeZone).toBe('America/Chicago');
    const c = report.counties[1]!.rows[0]!;
    expect(c.checkIn).toEqual({ label: 'Last check-in', at: '2026-03-01T12:00:00Z' });
    expect(c.timeZone).toBe('UTC');
    expect(gate.siteZone).toBe(true);
    expect(c.siteZone).toBe(false);
    expect(c.connectionText).toBe('Registering');
  });

  it('reuses the rows of unchanged devices until the sites or batches change', () => {
    const a = fakeDevice('A', { location_group: 1 });
    const b = fakeDevice('B', { location_group: 1 });
    const rowOf = rowCache();
    const first = statusReport([a, b], new Map(), sites, batches, rowOf);
    const patched = { ...b, is_pause: true };
    const second = statusReport([a, patched], new Map(), sites, batches, rowOf);
    expect(second.counties[0]!.rows[0]).toBe(first.counties[0]!.rows[0]);
    expect(second.counties[0]!.rows[1]).not.toBe(first.counties[0]!.rows[1]);
    expect(second.counties[0]!.rows[1]!.paused).toBe(true);
    const third = statusReport([a, patched], new Map(), new Map(sites), batches, rowOf);
    expect(third.counties[0]!.rows[0]).not.toBe(first.counties[0]!.rows[0]);
  });

  it('writes a moment in the site zone, the zone named', () => {
    expect(siteTime('2026-03-01T18:04:00Z', 'America/Chicago')).toBe('1 Mar 2026 12:04 PM CST');
    expect(siteTime('2026-07-01T18:04:00Z', 'America/Chicago')).toBe('1 Jul 2026 1:04 PM CDT');
    expect(siteTime('2026-03-01T18:04:00Z', 'Not/AZone')).toBe('1 Mar 2026 6:04 PM UTC');
  });
});

describe('zoneNote', () => {
  const chicago = { timeZone: 'America/Chicago', siteZone: true };
  const noSite = { timeZone: 'UTC', siteZone: false };
  it("says the sites' time only when every row is in its site's zone and they share one", () => {
    expect(zoneNote([chicago, chicago])).toBe('Every time on this report is the sites’ time.');
    expect(zoneNote([chicago, { timeZone: 'America/New_York', siteZone: true }])).toBe(
      "Check-in times are in each site's own time zone, named after the time.",
    );
    expect(zoneNote([chicago, noSite])).toBe("Check-in times are in each site's own time zone, named after the time.");
  });
  it('names UTC when the one zone is the fallback of devices without a site zone', () => {
    expect(zoneNote([noSite, noSite])).toBe('Every time on this report is in UTC.');
    expect(zoneNote([{ timeZone: 'UTC', siteZone: true }, noSite])).toBe('Every time on this report is in UTC.');
    expect(zoneNote([])).toBeNull();
  });
});
