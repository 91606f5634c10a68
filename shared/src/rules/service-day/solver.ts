/**
 * The service day's routing: which crew visits which site, in which order, within each crew's working
 * hours and van, keeping the driving short. A small own solver rather than a library: the JavaScript VRP
 * libraries are either wrappers of native solvers (OR-Tools, VROOM: a binary to ship and run) or
 * unmaintained, and this problem is small (tens of stops a crew, one time window per crew, two capacities).
 *
 * Method (deterministic: fixed orders, ties broken by index, no randomness):
 * 1. Stops come in urgency tiers (already due first). Within a tier, global cheapest insertion: the
 *    stop whose cheapest feasible insertion (any crew, any position) adds the least driving goes in first.
 *    A stop no crew can take is left for now.
 * 2. After each tier, each route is improved by 2-opt and or-opt (moving runs of 1-3 stops, either way
 *    round) until no move shortens it; the time freed may take more stops of the next tier.
 * 3. Then stops are moved between crews when that shortens the total, and left stops are tried again.
 * What is still left is unplanned, with the reason in words.
 */

export type SolverCrew = {
  /** The crew's depot: a node of the travel matrix. */
  node: number;
  /** Seconds of the working day (depot to depot, driving and service). */
  availableSec: number;
  capacityLitres: number;
  capacityBatteries: number;
};

export type SolverStop = {
  node: number;
  serviceSec: number;
  litres: number;
  batteries: number;
  /** Lower is more urgent: tier 0 goes in before tier 1. */
  tier: number;
};

export type SolverInput = {
  crews: readonly SolverCrew[];
  stops: readonly SolverStop[];
  /** Seconds from node to node. */
  seconds: (from: number, to: number) => number;
};

export type SolverRoute = {
  crew: number;
  stops: number[];
  driveSec: number;
  serviceSec: number;
  litres: number;
  batteries: number;
};
export type SolverResult = { routes: SolverRoute[]; unplanned: { stop: number; why: string }[] };

const EPS = 1e-9;

export function solveRoutes(input: SolverInput): SolverResult {
  const { crews, stops, seconds } = input;
  const routes: SolverRoute[] = crews.map((_, crew) => ({
    crew,
    stops: [],
    driveSec: 0,
    serviceSec: 0,
    litres: 0,
    batteries: 0,
  }));
  if (!crews.length) return { routes, unplanned: stops.map((_, stop) => ({ stop, why: 'No crew was chosen for the day.' })) };

  const nodeAt = (r: SolverRoute, i: number) => (i < 0 || i >= r.stops.length ? crews[r.crew]!.node : stops[r.stops[i]!]!.node);
  const pathCost = (crew: number, seq: readonly number[]) => {
    const depot = crews[crew]!.node;
    let total = 0;
    let prev = depot;
    for (const s of seq) {
      const n = stops[s]!.node;
      total += seconds(prev, n);
      prev = n;
    }
    return total + seconds(prev, depot);
  };
  const fitsLoad = (r: SolverRoute, s: number) =>
    r.litres + stops[s]!.litres <= crews[r.crew]!.capacityLitres + EPS &&
    r.batteries + stops[s]!.batteries <= crews[r.crew]!.capacityBatteries;

  /** The cheapest feasible position for stop s in route r: [added driving, position] or null. */
  function bestInsertion(r: SolverRoute, s: number): [number, number] | null {
    if (!fitsLoad(r, s)) return null;
    const n = stops[s]!.node;
    const room = crews[r.crew]!.availableSec - r.driveSec - r.serviceSec - stops[s]!.serviceSec;
    let best: [number, number] | null = null;
    for (let p = 0; p <= r.stops.length; p++) {
      const a = nodeAt(r, p - 1);
      const b = nodeAt(r, p);
      const added = seconds(a, n) + seconds(n, b) - seconds(a, b);
      if (added <= room + EPS && (!best || added < best[0] - EPS)) best = [added, p];
    }
    return best;
  }

  function insert(r: SolverRoute, s: number, p: number, added: number) {
    r.stops.splice(p, 0, s);
    r.driveSec += added;
    r.serviceSec += stops[s]!.serviceSec;
    r.litres += stops[s]!.litres;
    r.batteries += stops[s]!.batteries;
  }

  /** Global cheapest insertion of `pending` (indices), each route's best kept until that route changes. */
  function insertAll(pending: number[]): number[] {
    const best = pending.map((s) => routes.map((r) => bestInsertion(r, s)));
    const open = new Set(pending.keys());
    for (;;) {
      let pick: { k: number; r: number; added: number; p: number } | null = null;
      for (const k of open) {
        const row = best[k]!;
        for (let r = 0; r < row.length; r++) {
          const b = row[r];
          if (b && (!pick || b[0] < pick.added - EPS)) pick = { k, r, added: b[0], p: b[1] };
        }
      }
      if (!pick) break;
      const route = routes[pick.r]!;
      insert(route, pending[pick.k]!, pick.p, pick.added);
      open.delete(pick.k);
      for (const k of open) best[k]![pick.r] = bestInsertion(route, pending[k]!);
    }
    return [...open].map((k) => pending[k]!);
  }

  /** 2-opt and or-opt on one route until no move shortens it (service time is fixed, so time only falls). */
  function improve(r: SolverRoute) {
    let seq = r.stops.slice();
    let cost = pathCost(r.crew, seq);
    let improved = true;
    while (improved) {
      improved = false;
      const n = seq.length;
      for (let i = 0; i < n - 1 && !improved; i++) {
        for (let j = i + 1; j < n && !improved; j++) {
          const cand = [...seq.slice(0, i), ...seq.slice(i, j + 1).reverse(), ...seq.slice(j + 1)];
          const c = pathCost(r.crew, cand);
          if (c < cost - 1e-6) [seq, cost, improved] = [cand, c, true];
        }
      }
      for (let len = 1; len <= 3 && !improved; len++) {
        for (let i = 0; i + len <= n && !improved; i++) {
          const seg = seq.slice(i, i + len);
          const rest = [...seq.slice(0, i), ...seq.slice(i + len)];
          for (let p = 0; p <= rest.length && !improved; p++) {
            if (p === i) continue;
            for (const piece of len > 1 ? [seg, seg.slice().reverse()] : [seg]) {
              const cand = [...rest.slice(0, p), ...piece, ...rest.slice(p)];
              const c = pathCost(r.crew, cand);
              if (c < cost - 1e-6) {
                [seq, cost, improved] = [cand, c, true];
                break;
              }
            }
          }
        }
      }
    }
    r.stops = seq;
    r.driveSec = pathCost(r.crew, seq);
  }

  /** Moves one stop to another crew when that shortens the total driving. */
  function relocateBetween(): boolean {
    let moved = false;
    for (const from of routes) {
      for (let i = 0; i < from.stops.length; i++) {
        const s = from.stops[i]!;
        const a = nodeAt(from, i - 1);
        const b = nodeAt(from, i + 1);
        const n = stops[s]!.node;
        const saved = seconds(a, n) + seconds(n, b) - seconds(a, b);
        let target: { r: SolverRoute; added: number; p: number } | null = null;
        for (const to of routes) {
          if (to === from) continue;
          const ins = bestInsertion(to, s);
          if (ins && ins[0] < saved - 1e-6 && (!target || ins[0] < target.added - EPS))
            target = { r: to, added: ins[0], p: ins[1] };
        }
        if (!target) continue;
        from.stops.splice(i, 1);
        from.driveSec -= saved;
        from.serviceSec -= stops[s]!.serviceSec;
        from.litres -= stops[s]!.litres;
        from.batteries -= stops[s]!.batteries;
        insert(target.r, s, target.p, target.added);
        moved = true;
        i--;
      }
    }
    return moved;
  }

  const tiers = [...new Set(stops.map((s) => s.tier))].sort((a, b) => a - b);
  let left: number[] = [];
  for (const tier of tiers) {
    const pending = [...left, ...stops.flatMap((s, i) => (s.tier === tier ? [i] : []))];
    left = insertAll(pending);
    routes.forEach(improve);
  }
  for (let round = 0; round < 5 && relocateBetween(); round++) routes.forEach(improve);
  left = insertAll(left);
  routes.forEach(improve);

  return { routes, unplanned: left.sort((a, b) => a - b).map((stop) => ({ stop, why: whyLeft(stop) })) };

  function whyLeft(s: number): string {
    const st = stops[s]!;
    const maxLitres = Math.max(...crews.map((c) => c.capacityLitres));
    const maxBatteries = Math.max(...crews.map((c) => c.capacityBatteries));
    if (st.litres > maxLitres + EPS)
      return `Needs ${round1(st.litres)} L of fluid, more than any van carries (${round1(maxLitres)} L).`;
    if (st.batteries > maxBatteries) return `Needs ${st.batteries} batteries, more than any van carries (${maxBatteries}).`;
    const reachable = crews.some(
      (c) => seconds(c.node, st.node) + st.serviceSec + seconds(st.node, c.node) <= c.availableSec + EPS,
    );
    if (!reachable) return 'Too far: no crew can drive there, serve it and return within its working hours.';
    const timeFits = routes.some((r) => {
      const ins = bestInsertion({ ...r, litres: 0, batteries: 0 }, s);
      return ins !== null;
    });
    if (timeFits) return "The vans' capacity is used up by more urgent stops.";
    return "The crews' working hours are full with more urgent stops.";
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The exact shortest order of one crew's stops (every permutation, pruned): for tests and the benchmark only. */
export function bruteForceOrder(
  depot: number,
  nodes: readonly number[],
  seconds: (from: number, to: number) => number,
): { order: number[]; cost: number } {
  let best = { order: [] as number[], cost: Infinity };
  const used = new Array<boolean>(nodes.length).fill(false);
  const path: number[] = [];
  const walk = (prev: number, cost: number) => {
    if (cost >= best.cost) return;
    if (path.length === nodes.length) {
      const total = cost + seconds(prev, depot);
      if (total < best.cost) best = { order: path.slice(), cost: total };
      return;
    }
    for (let i = 0; i < nodes.length; i++) {
      if (used[i]) continue;
      used[i] = true;
      path.push(i);
      walk(nodes[i]!, cost + seconds(prev, nodes[i]!));
      path.pop();
      used[i] = false;
    }
  };
  walk(depot, 0);
  return best;
}
