import { describe, expect, it } from 'vitest';
import { HOURS_PER_WEEK } from '../forecast.ts';
import type { DueDevice } from './due.ts';
import { planServiceDay, type PlanCrewInput, type PlanInput } from './plan.ts';
import { greatCircleMatrix, greatCircleSource } from './travel.ts';

const NOW = Date.parse('2026-11-28T18:00:00Z'); // Saturday 12:00 Chicago; the plan is for Sunday
const TZ = 'America/Chicago';
const rate = new Array<number>(HOURS_PER_WEEK).fill(10); // 10 ml an hour
const crew: PlanCrewInput = {
  id: 7,
  name: 'North van',
  depot: { address: 'Depot', lat: 30.0, lng: -90.0 },
  timeZone: TZ,
  startTime: '08:00',
  endTime: '17:00',
  capacityLitres: 40,
  capacityBatteries: 4,
};
const sites = [
  { id: 1, name: 'Beach', address: '1 Beach Rd', lat: 30.05, lng: -90.0, timeZone: TZ },
  { id: 2, name: 'Park', address: '2 Park Ave', lat: 30.1, lng: -90.05, timeZone: TZ },
  { id: 3, name: 'Mall', address: '3 Mall St', lat: 29.95, lng: -90.1, timeZone: TZ },
];
const device = (serial: string, siteId: number, remainingMl: number, over: Partial<DueDevice> = {}): DueDevice => ({
  serial,
  siteId,
  timeZone: TZ,
  brandId: 1,
  brandName: 'Sunny',
  pumps: [{ pump: 1, fluid: 'Sunscreen', remainingMl, reservoirMl: 1500, rate, batch: null }],
  battery: { kind: 'none', why: 'flat-or-rising', slopePerDay: 0 },
  warnings: [],
  isMaintenance: false,
  ...over,
});
const stock = [
  { batchNo: 'LATE', fluid: 'Sunscreen' as const, brandIds: [1], expireDate: '2027-08-01', remainLitres: 50, recalled: false },
  { batchNo: 'FIRST', fluid: 'Sunscreen' as const, brandIds: [1], expireDate: '2027-01-15', remainLitres: 50, recalled: false },
];
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  date: '2026-11-29',
  now: NOW,
  crews: [crew],
  sites,
  devices: [
    device('A-1', 1, 300),
    device('A-2', 1, 900),
    device('B-1', 2, 200, { isMaintenance: true, warnings: ['PUMP_SENSOR'] }),
    device('C-1', 3, 1500),
  ],
  stock,
  travel: greatCircleSource(),
  ...over,
});

describe('planServiceDay', () => {
  it('visits the due sites, tops up a device at a visited site, and leaves the rest', async () => {
    const plan = await planServiceDay(input());
    expect(plan.note).toBeNull();
    const [c] = plan.crews;
    expect(c!.stops.map((s) => s.site.name).sort()).toEqual(['Beach', 'Park']);
    const beach = c!.stops.find((s) => s.site.id === 1)!;
    expect(beach.devices.map((d) => [d.serial, d.topUp])).toEqual([
      ['A-1', false],
      ['A-2', true],
    ]);
    expect(beach.devices[0]!.reasons).toEqual(['Left sunscreen pump runs dry Sun 18:00']);
    const park = c!.stops.find((s) => s.site.id === 2)!;
    expect(park.devices[0]!.reasons).toContain('Pump sensor fault');
    expect(c!.pickList.warningsToFix).toEqual([
      { serial: 'B-1', text: 'Maintenance flag is set' },
      { serial: 'B-1', text: 'Pump sensor fault' },
    ]);
  });

  it('ETAs are in the site zone, from the crew start plus driving and service', async () => {
    const plan = await planServiceDay(input());
    const c = plan.crews[0]!;
    expect(c.totals.start).toBe('2026-11-29T08:00:00-06:00');
    const first = c.stops[0]!;
    expect(first.order).toBe(1);
    expect(first.eta).toMatch(/^2026-11-29T08:\d\d:00-06:00$/);
    const m = greatCircleMatrix([crew.depot, first.site]);
    expect(first.driveMinutes).toBe(Math.round(m.seconds[0]![1]! / 60));
    // The second arrives after the first's service: 10 min a stop plus 5 a device.
    const second = c.stops[1]!;
    const gap = (Date.parse(second.eta) - Date.parse(first.eta)) / 60_000;
    expect(gap).toBeGreaterThanOrEqual(10 + 5 * first.devices.length + second.driveMinutes - 1);
  });

  it('refills the reservoir less what is left at the ETA, from the first-expiring batch, with totals', async () => {
    const plan = await planServiceDay(input());
    const c = plan.crews[0]!;
    const beach = c.stops.find((s) => s.site.id === 1)!;
    const a1 = beach.devices[0]!;
    // A-1 has 300 ml at 12:00 Saturday and loses 10 ml an hour: at the ETA (about 20 h later) 1.5 L less what is left.
    const hours = (Date.parse(beach.eta) - NOW) / 3_600_000;
    expect(hours).toBeGreaterThan(20);
    expect(a1.refill).toEqual([
      {
        pump: 1,
        fluid: 'Sunscreen',
        litres: +(1.5 - (300 - 10 * hours) / 1000).toFixed(2),
        batchNumber: 'FIRST',
        replacesBatch: false,
      },
    ]);
    const all = c.stops.flatMap((s) => s.devices.flatMap((d) => d.refill));
    expect(c.pickList.litres).toBeCloseTo(
      all.reduce((a, r) => a + r.litres, 0),
      2,
    );
    expect(c.pickList.batches.map((b) => b.batchNumber)).toEqual(['FIRST']);
    expect(c.pickList.shortages).toEqual([]);
  });

  it('says when a brand lacks usable fluid', async () => {
    const plan = await planServiceDay(input({ stock: [{ ...stock[0]!, recalled: true }] }));
    expect(plan.shortages.map((s) => s.text)[0]).toMatch(/^No usable sunscreen of brand Sunny: [\d.]+ L short$/);
    expect(plan.crews[0]!.stops[0]!.devices[0]!.refill[0]!.batchNumber).toBeNull();
  });

  it('nothing due: a plan that says so', async () => {
    const plan = await planServiceDay(input({ devices: [device('C-1', 3, 1500)] }));
    expect(plan.note).toBe('Nothing is due on 2026-11-29: no device needs a visit by the end of the next day.');
    expect(plan.crews[0]!.stops).toEqual([]);
  });

  it('no crews: the due work is unplanned with the reason, and the plan says so', async () => {
    const plan = await planServiceDay(input({ crews: [] }));
    expect(plan.note).toBe('No crews were chosen: 2 due sites are left unplanned.');
    expect(plan.unplanned.map((u) => [u.serial, u.why])).toEqual([
      ['A-1', 'No crew was chosen for the day.'],
      ['B-1', 'No crew was chosen for the day.'],
    ]);
  });

  it('a short day leaves stops unplanned with why, never dropped', async () => {
    const plan = await planServiceDay(input({ crews: [{ ...crew, startTime: '08:00', endTime: '08:40' }] }));
    const planned = plan.crews[0]!.stops.flatMap((s) => s.devices.filter((d) => !d.topUp).map((d) => d.serial));
    expect([...planned, ...plan.unplanned.map((u) => u.serial)].sort()).toEqual(['A-1', 'B-1']);
    expect(plan.unplanned.length).toBeGreaterThan(0);
  });
});
