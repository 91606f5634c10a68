import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDevice, seededRandom, usualMlPerHour, type DeviceState } from './device-model.ts';
import { startDemoCrews } from './demo-crews.ts';
import { DispenseHistory } from './dispense-history.ts';
import { plannerPolicy } from './planner-policy.ts';
import { defaultCrews } from './season.ts';
import type { FetchLike, Simulator } from './simulator.ts';

const SPEED = 3600; // a simulated hour a real second
const SIM_START = Date.UTC(2026, 5, 3, 10, 0); // Wednesday 05:00 in New Orleans (CDT)

const unit = (serial: string, lat: number, over: Record<string, unknown>) => ({
  serial,
  label: `Unit ${serial}`,
  location_group: 1,
  location: { lat, lng: -90.07 },
  left_pump_type: 'Sunscreen',
  right_pump_type: 'Unspecified',
  batchNumber: 'SPF-OLD',
  batch2Number: null,
  level_sensor1: true,
  level_sensor2: null,
  volume_remain: 1400,
  volume_remain2: null,
  is_online: true,
  warning_lists: [],
  battery_percent: 80,
  last_seen_at: new Date(SIM_START).toISOString(),
  poweroff_time: '15',
  wakeup1_time: '5',
  ...over,
});

describe('the demo crews', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 29, 1, 0));
  });
  afterEach(() => vi.useRealTimers());

  it('plan each simulated morning and record each refill as a technician does, at the stop', async () => {
    const realStart = Date.now();
    const states = new Map<string, DeviceState>(
      ['DEMO1', 'DEMO2', 'DEMO3'].map((serial) => [
        serial,
        createDevice(
          { serial, leftPumpType: 'Sunscreen', rightPumpType: 'Unspecified', mlPerShot: 4.93, timezone: 'America/Chicago' },
          { speed: SPEED, realStart, simStart: SIM_START, random: seededRandom(1) },
        ),
      ]),
    );
    const sim: Simulator = {
      stop: async () => undefined,
      stats: () => {
        throw new Error('unused');
      },
      device: (serial) => states.get(serial),
      simTime: (real = Date.now()) => SIM_START + (real - realStart) * SPEED,
      realTime: (s) => realStart + (s - SIM_START) / SPEED,
    };
    const posts: { at: number; body: Record<string, unknown>; auth: string | undefined }[] = [];
    const fetchImpl: FetchLike = async (url, init) => {
      const path = new URL(url).pathname;
      const json = (body: unknown, status = 200) => ({ status, text: async () => JSON.stringify(body) });
      if (path === '/api/v1/device')
        // DEMO1 runs low today, DEMO2 is nearly full, DEMO3's batch expired (the distributor's call, not the
        // refill round's); the still unit is not the crews' to serve.
        return json([
          unit('DEMO1', 29.95, { volume_remain: 260, batchNumber: 'SPF-LATE' }),
          unit('DEMO2', 29.96, {}),
          unit('DEMO3', 29.955, { volume_remain: 200, warning_lists: ['BATCH_EXPIRED'] }),
          unit('STILL', 29.97, { volume_remain: 100, warning_lists: ['LEFT_PUMP_VOLUME'] }),
        ]);
      if (path === '/api/v1/batch')
        return json([
          { batch_no: 'SPF-OLD', batch_type: 1, expire_date: '2026-01-01', is_recalled: false },
          { batch_no: 'SPF-LATE', batch_type: 1, expire_date: '2028-01-01', is_recalled: false },
          { batch_no: 'SPF-SOON', batch_type: 1, expire_date: '2027-01-01', is_recalled: false },
          { batch_no: 'SAN-1', batch_type: 2, expire_date: '2027-01-01', is_recalled: false },
        ]);
      if (path === '/api/v1/maintenanceRecord' && init.method === 'POST') {
        posts.push({
          at: sim.simTime(),
          body: JSON.parse(init.body!) as Record<string, unknown>,
          auth: init.headers.authorization,
        });
        return json({ id: posts.length }, 201);
      }
      return json({ detail: 'not found' }, 404);
    };
    const crews = startDemoCrews({
      baseUrl: 'http://portal.test',
      token: 'maintenance-credential-0001',
      sim,
      serials: ['DEMO1', 'DEMO2', 'DEMO3'],
      history: new DispenseHistory(SIM_START),
      rhythm: usualMlPerHour,
      crews: defaultCrews(1, { depot: { lat: 29.95, lng: -90.07 }, timezone: 'America/Chicago' }),
      policy: plannerPolicy({ scope: 'fluid', reserveMl: 250 }),
      fetchImpl,
    });
    // 05:00 -> 06:00 (the plan) -> the crew leaves at 08:00 and is at the first stop minutes later.
    await vi.advanceTimersByTimeAsync(4_000);
    crews.stop();
    expect(crews.stats()).toMatchObject({ plans: 1, visits: 1, refills: 1, failures: 0 });
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(post!.auth).toBe('Token maintenance-credential-0001');
    // Its own batch goes in.
    expect(post!.body).toMatchObject({
      serial: 'DEMO1',
      refills: [{ pump: 1, batch: 'SPF-LATE' }],
      crew: { id: 'crew-1', name: 'Demo crew-1' },
    });
    // At the stop's simulated arrival, after the crew left the depot at 08:00 (13:00 UTC).
    expect(post!.at).toBeGreaterThanOrEqual(Date.UTC(2026, 5, 3, 13, 0));
    expect(post!.at).toBeLessThan(Date.UTC(2026, 5, 3, 14, 0));
  });
});
