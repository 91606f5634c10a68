import type { Crew, ServicePlan } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { servicePlanProgressedReceived } from '../../shared/realtime';
import {
  $message,
  $plan,
  $routes,
  crewToggled,
  deleteCrewFx,
  loadCrewsFx,
  loadPlansFx,
  planClicked,
  planFx,
  publishClicked,
  publishFx,
  serviceDayOpened,
  tomorrow,
} from './model';

const crew = (id: number, lng: number): Crew => ({
  id,
  name: `Van ${id}`,
  email: `van${id}@crew.test`,
  phone: '',
  depot: { address: 'Depot', lat: 30, lng },
  timeZone: 'America/Chicago',
  startTime: '08:00',
  endTime: '17:00',
  capacityLitres: 50,
  capacityBatteries: 5,
});
const stop = (order: number, lng: number) => ({
  order,
  site: { id: order, name: `Site ${order}`, address: `${order} Road`, lat: 30.1, lng, timeZone: 'America/Chicago' },
  eta: '2026-11-29T08:30:00-06:00',
  driveMinutes: 10,
  done: false,
  devices: [
    {
      serial: `S${order}`,
      reasons: ['Left sunscreen pump is empty'],
      topUp: false,
      refill: [],
      battery: null,
      fix: [],
      serviced: false,
    },
  ],
});
const plan = (over: Partial<ServicePlan> = {}): ServicePlan => ({
  id: 9,
  date: '2026-11-29',
  version: 1,
  status: 'draft',
  createdAt: '',
  publishedAt: null,
  crews: [
    {
      crew: { id: 1, name: 'Van 1', timeZone: 'America/Chicago', startTime: '08:00', endTime: '17:00' },
      stops: [stop(1, -90.1), stop(2, -90.2)],
      pickList: { batches: [], litres: 0, batteries: 0, shortages: [], warningsToFix: [] },
      totals: { stops: 2, devices: 2, km: 10, drivingMinutes: 20, serviceMinutes: 30, start: '', returnAt: '' },
    },
  ],
  unplanned: [],
  shortages: [],
  note: null,
  travelSource: 'great-circle',
  progress: { stops: 2, done: 0 },
  ...over,
});

describe('service day model', () => {
  it('plans with the crews left ticked, and the answer in words', async () => {
    const asked: { date: string; crewIds: number[] }[] = [];
    const scope = fork({
      handlers: [
        [loadCrewsFx, async () => [crew(1, -90), crew(2, -91)]],
        [loadPlansFx, async () => []],
        [planFx, async (p: { date: string; crewIds: number[] }) => (asked.push(p), plan())],
      ],
    });
    await allSettled(serviceDayOpened, { scope });
    await allSettled(crewToggled, { scope, params: 2 });
    await allSettled(planClicked, { scope });
    expect(asked).toEqual([{ date: tomorrow(), crewIds: [1] }]);
    expect(scope.getState($plan)?.id).toBe(9);
    expect(scope.getState($message)).toEqual({ kind: 'ok', text: 'Planned: version 1, 2 stops, 0 devices unplanned.' });
  });

  it('draws each crew from its depot through its stops and back, straight segments, numbered', async () => {
    const scope = fork({
      handlers: [
        [loadCrewsFx, async () => [crew(1, -90)]],
        [loadPlansFx, async () => [plan()]],
      ],
    });
    await allSettled(serviceDayOpened, { scope });
    const [route] = scope.getState($routes);
    expect(route!.path).toEqual([
      [-90, 30],
      [-90.1, 30.1],
      [-90.2, 30.1],
      [-90, 30],
    ]);
    expect(route!.stops.map((s) => s.order)).toEqual([1, 2]);
  });

  it('publishing answers the published plan; a failure says why', async () => {
    const scope = fork({
      handlers: [
        [loadCrewsFx, async () => []],
        [loadPlansFx, async () => [plan()]],
        [publishFx, async () => plan({ status: 'published' })],
      ],
    });
    await allSettled(serviceDayOpened, { scope });
    await allSettled(publishClicked, { scope });
    expect(scope.getState($plan)?.status).toBe('published');
    expect(scope.getState($message)?.text).toBe('Published: each crew is mailed its plan (1 mail).');
    const failing = fork({
      handlers: [
        [loadCrewsFx, async () => []],
        [loadPlansFx, async () => [plan()]],
        [
          publishFx,
          async () => Promise.reject(Object.assign(new Error('x'), { body: { detail: 'No service plan with this id.' } })),
        ],
      ],
    });
    await allSettled(serviceDayOpened, { scope: failing });
    await allSettled(publishClicked, { scope: failing });
    expect(failing.getState($message)).toEqual({ kind: 'error', text: 'Could not publish: No service plan with this id.' });
  });

  it('live progress patches the shown plan only', async () => {
    const scope = fork({
      handlers: [
        [loadCrewsFx, async () => []],
        [loadPlansFx, async () => [plan({ status: 'published' })]],
        [deleteCrewFx, async () => ({ detail: '' })],
      ],
    });
    await allSettled(serviceDayOpened, { scope });
    const progress = {
      date: '2026-11-29',
      status: 'in_progress' as const,
      progress: { stops: 2, done: 1 },
      stops: [{ crewId: 1, order: 1, done: true }],
      serviced: ['S1'],
      at: '',
    };
    await allSettled(servicePlanProgressedReceived, { scope, params: { ...progress, planId: 99 } });
    expect(scope.getState($plan)?.status).toBe('published');
    await allSettled(servicePlanProgressedReceived, { scope, params: { ...progress, planId: 9 } });
    const p = scope.getState($plan)!;
    expect(p.status).toBe('in_progress');
    expect(p.crews[0]!.stops.map((s) => s.done)).toEqual([true, false]);
    expect(p.crews[0]!.stops[0]!.devices[0]!.serviced).toBe(true);
  });
});
