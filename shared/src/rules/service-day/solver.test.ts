import { describe, expect, it } from 'vitest';
import { bruteForceOrder, solveRoutes, type SolverStop } from './solver.ts';
import { greatCircleMatrix } from './travel.ts';

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const stop = (node: number, over: Partial<SolverStop> = {}): SolverStop => ({
  node,
  serviceSec: 900,
  litres: 1,
  batteries: 0,
  tier: 0,
  ...over,
});
const BIG = { availableSec: 1e9, capacityLitres: 1e9, capacityBatteries: 1e9 };

describe('solveRoutes', () => {
  it('finds the optimum on small one-crew instances (brute force)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const rnd = mulberry32(seed);
      const n = 4 + (seed % 5);
      const pts = Array.from({ length: n + 1 }, () => ({ lat: 29.9 + rnd() * 0.4, lng: -90.3 + rnd() * 0.4 }));
      const m = greatCircleMatrix(pts);
      const sec = (a: number, b: number) => m.seconds[a]![b]!;
      const nodes = pts.slice(1).map((_, i) => i + 1);
      const res = solveRoutes({ crews: [{ node: 0, ...BIG }], stops: nodes.map((nd) => stop(nd)), seconds: sec });
      const best = bruteForceOrder(0, nodes, sec);
      expect(res.routes[0]!.stops).toHaveLength(n);
      expect(res.routes[0]!.driveSec).toBeLessThanOrEqual(best.cost * 1.03);
    }
  });

  it('orders stops along a line out and back, not zig-zag', () => {
    // Depot at 0; stops at 3, 1, 2 km along a line: the short round is 1, 2, 3 (or its reverse).
    const x = [0, 3, 1, 2];
    const sec = (a: number, b: number) => Math.abs(x[a]! - x[b]!) * 100;
    const res = solveRoutes({ crews: [{ node: 0, ...BIG }], stops: [stop(1), stop(2), stop(3)], seconds: sec });
    expect([
      [1, 2, 0],
      [0, 2, 1],
    ]).toContainEqual(res.routes[0]!.stops);
    expect(res.routes[0]!.driveSec).toBe(600);
  });

  it('keeps within working hours and lists what does not fit with the reason', () => {
    const x = [0, 1, 2, 50];
    const sec = (a: number, b: number) => Math.abs(x[a]! - x[b]!) * 600; // 10 min a km
    const res = solveRoutes({
      crews: [{ node: 0, availableSec: 3 * 3600, capacityLitres: 100, capacityBatteries: 10 }],
      stops: [stop(1), stop(2), stop(3)],
      seconds: sec,
    });
    expect(res.routes[0]!.stops.slice().sort()).toEqual([0, 1]);
    expect(res.unplanned).toEqual([
      { stop: 2, why: 'Too far: no crew can drive there, serve it and return within its working hours.' },
    ]);
    const r = res.routes[0]!;
    expect(r.driveSec + r.serviceSec).toBeLessThanOrEqual(3 * 3600);
  });

  it('keeps within van capacity, most urgent tier first', () => {
    const sec = (a: number, b: number) => (a === b ? 0 : 600);
    const res = solveRoutes({
      crews: [{ node: 0, availableSec: 10 * 3600, capacityLitres: 5, capacityBatteries: 1 }],
      stops: [
        stop(1, { litres: 3, tier: 1 }),
        stop(2, { litres: 3, tier: 0 }),
        stop(3, { litres: 1, batteries: 1 }),
        stop(4, { litres: 1, batteries: 1, tier: 1 }),
        stop(5, { litres: 9 }),
      ],
      seconds: sec,
    });
    expect(res.routes[0]!.stops.slice().sort()).toEqual([1, 2]);
    expect(res.unplanned.map((u) => [u.stop, u.why])).toEqual([
      [0, "The vans' capacity is used up by more urgent stops."],
      [3, "The vans' capacity is used up by more urgent stops."],
      [4, 'Needs 9 L of fluid, more than any van carries (5 L).'],
    ]);
  });

  it('shares the stops between crews by where their depots are, and is deterministic', () => {
    // Two depots far apart, each with stops around it.
    const pts = [
      { lat: 30, lng: -90 },
      { lat: 30, lng: -89 },
      ...[0, 1, 2].map((i) => ({ lat: 30.01 + i * 0.01, lng: -90 })),
      ...[0, 1, 2].map((i) => ({ lat: 30.01 + i * 0.01, lng: -89 })),
    ];
    const m = greatCircleMatrix(pts);
    const input = {
      crews: [
        { node: 0, ...BIG },
        { node: 1, ...BIG },
      ],
      stops: [2, 5, 3, 6, 4, 7].map((n) => stop(n)),
      seconds: (a: number, b: number) => m.seconds[a]![b]!,
    };
    const res = solveRoutes(input);
    expect(res.routes[0]!.stops.map((s) => input.stops[s]!.node).sort()).toEqual([2, 3, 4]);
    expect(res.routes[1]!.stops.map((s) => input.stops[s]!.node).sort()).toEqual([5, 6, 7]);
    expect(solveRoutes(input)).toEqual(res);
  });

  it('with no crews everything is unplanned', () => {
    expect(solveRoutes({ crews: [], stops: [stop(0)], seconds: () => 0 }).unplanned).toEqual([
      { stop: 0, why: 'No crew was chosen for the day.' },
    ]);
  });
});
