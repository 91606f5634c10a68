import { localPicks, selectionOfPicks, type Picks } from '@fleet/shared';
import { combine, createStore, sample, type Effect, type Store, type Unit } from 'effector';

/** The selection the server counts for some picks (the count effect's parameter). */
export type PicksSelection = ReturnType<typeof selectionOfPicks>;

/**
 * How many devices a view's picks hold (shared device-selection rules, issue 46): the browser's count when it
 * knows the serials, else the server's count of those picks (`countFx`, POST /api/v1/deviceSelection with
 * limit 0), asked each time the picks change while `when` holds; null while the server is asked. Only the
 * answer for the picks now held counts: an older answer arriving late never replaces it. One rule for the
 * views that pick devices (Advance Filter, Add Device To brand).
 */
export function createPicksCount<R extends { total: number }, E>(opts: {
  picks: Store<Picks>;
  countFx: Effect<PicksSelection, R, E>;
  when: Store<boolean>;
  reset: Unit<unknown>[];
}): Store<number | null> {
  const $serverCount = createStore<{ key: string; total: number } | null>(null, { serialize: 'ignore' }).reset(opts.reset);
  sample({
    clock: opts.picks,
    source: opts.when,
    filter: (when, picks) => when && localPicks(picks) === null,
    fn: (_, picks) => selectionOfPicks(picks),
    target: opts.countFx,
  });
  sample({
    clock: opts.countFx.done,
    source: opts.picks,
    filter: (picks, { params }) => JSON.stringify(selectionOfPicks(picks)) === JSON.stringify(params),
    fn: (_, { params, result }) => ({ key: JSON.stringify(params), total: result.total }),
    target: $serverCount,
  });
  return combine(opts.picks, $serverCount, (picks, counted) => {
    const local = localPicks(picks);
    if (local) return local.length;
    return counted?.key === JSON.stringify(selectionOfPicks(picks)) ? counted.total : null;
  });
}
