import { rollupsApi, type QueryOf, type RollupRow } from '@fleet/shared';
import { attach, combine, createEvent, createStore, merge, sample, type Store, type Unit } from 'effector';
import { call, createApiFx } from '../../shared/api';
import { overviewChangedReceived } from '../../shared/realtime';
import { deviceAnswered } from '../device';
import type { CountyRow, StatusTally } from './lib';

/** GET /api/v1/deviceRollup's query, as the client sends it. */
export type RollupQuery = NonNullable<QueryOf<typeof rollupsApi.rollup>>;
/** Equal queries, equal keys (empty filters are left out by the views). */
const rollupKey = (q: RollupQuery) => JSON.stringify(Object.entries(q).sort(([a], [b]) => a.localeCompare(b)));

/**
 * One roll-up read from the server (issue 46: the dashboard's county, site, partner and batch cards are
 * counted there, not from the fleet in the browser). It reads whenever `$query` changes to another query
 * and when the overview's device counts are pushed (cardCountsPushed), after this user's own write of a
 * device (deviceAnswered: an edit can move it to another county without changing any overall count) and
 * after `alsoAfter` (a brand's transfer), one read at a time; an answer for a query no
 * longer wanted is dropped. A null query (the view closed) reads nothing and keeps no rows.
 */
/** The overview counts a card shows: a push that changes none of them (a dispense's volumes) reads nothing. */
const CARD_COUNTS = ['total_devices', 'online_devices', 'offline_devices', 'warning_devices'];
/** The overview's counts were pushed and a card's figure may have moved (overall or a county's). */
const cardCountsPushed = sample({
  clock: overviewChangedReceived,
  filter: (payload) => CARD_COUNTS.some((key) => key in payload),
  fn: () => undefined,
});

/** The call itself: every roll-up reads through it (tests replace its handler once for all of them). */
export const fetchRollupFx = createApiFx((query: RollupQuery) => call(rollupsApi.rollup, { query }));

export function createRollup($query: Store<RollupQuery | null>, alsoAfter: Unit<unknown>[] = []) {
  const refresh = merge([cardCountsPushed, deviceAnswered, ...alsoAfter]);
  const fetchFx = attach({ effect: fetchRollupFx });
  const $rows = createStore<RollupRow[]>([], { serialize: 'ignore' });
  const $status = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle', { serialize: 'ignore' });
  const $key = $query.map((q) => (q ? rollupKey(q) : null));
  /** The key of the rows held (null: none). */
  const $shownKey = createStore<string | null>(null, { serialize: 'ignore' });
  /** A refresh asked while a read ran: read again after it. */
  const $again = createStore(false, { serialize: 'ignore' });
  const read = createEvent<RollupQuery>();

  sample({ clock: $key.updates, source: $query, filter: (q): q is RollupQuery => q !== null, target: read });
  sample({
    clock: refresh,
    source: { query: $query, pending: fetchFx.pending },
    filter: ({ query, pending }) => query !== null && !pending,
    fn: ({ query }) => query!,
    target: read,
  });
  $again.on(sample({ clock: refresh, source: fetchFx.pending, filter: (pending) => pending }), () => true);
  sample({
    clock: fetchFx.finally,
    source: { query: $query, again: $again },
    filter: ({ query, again }) => again && query !== null,
    fn: ({ query }) => query!,
    target: read,
  });
  $again.reset(read);
  sample({ clock: read, target: fetchFx });

  const answered = sample({
    clock: fetchFx.done,
    source: $key,
    filter: (key, { params }) => key === rollupKey(params),
    fn: (_, { params, result }) => ({ key: rollupKey(params), rows: result.rows }),
  });
  $rows.on(answered, (_, { rows }) => rows);
  $shownKey.on(answered, (_, { key }) => key);
  $rows.on($key.updates, (rows, key) => (key === null ? [] : rows));
  $shownKey.on($key.updates, (shown, key) => (key === null ? null : shown));
  $status
    .on(read, (status) => (status === 'ready' ? status : 'loading'))
    .on(answered, () => 'ready')
    .on(fetchFx.fail, (status) => (status === 'ready' ? status : 'failed'))
    .on($key.updates, (_, key) => (key === null ? 'idle' : 'loading'));
  /** The rows, only while they answer the query wanted (another brand's counties are not shown under this one). */
  const $current = combine($rows, $shownKey, $key, (rows, shown, key) => (shown !== null && shown === key ? rows : []));
  return { $rows: $current, $status };
}

const tallyOf = (row: RollupRow): StatusTally => ({
  total: row.total,
  online: row.online,
  offline: row.offline,
  warning: row.warning,
});

/** County cards from a `by=county` roll-up, named as the outlines name them, sorted by name. */
export function countyRowsOf(rows: readonly RollupRow[], names: ReadonlyMap<number, string>): CountyRow[] {
  return rows
    .map((row) => {
      const id = Number(row.key);
      return { id, name: names.get(id) ?? (row.name || `County ${id}`), ...tallyOf(row) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
export { tallyOf as rollupTally };
