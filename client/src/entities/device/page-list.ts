import { devicesApi, type QueryOf } from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';
import { deviceAnswered, devicesCleared, devicesPatched, listFieldsOf, keepLive, type Device, type DevicePatch } from './model';

/**
 * A device list read from the server one page at a time (GET /api/v1/devicePage, issue 46): the portal's
 * filter lists, Advance Filter and the like hold the pages scrolled to, never the fleet. The server
 * filters and orders (keyset on device id); `total` is its count of every match.
 *
 * Live, as issue 46 decides: a pushed change (devicesPatched, a write's answer) updates a row on screen at
 * once; a change that moves a device in or out of the filter shows at the next page read, but the count
 * is read again at once (a one-row page: the server counts from its aggregates).
 *
 * A factory, since several views page at the same time, each with its own filter.
 */
/** What a list asks for, as sent (partner: company names joined by PARTNER_SEPARATOR). */
export type PageFilter = Omit<QueryOf<typeof devicesApi.page>, 'cursor' | 'limit'>;
export type DevicePage = { items: Device[]; nextCursor: string | null; total: number };
type PageRead = { filter: PageFilter; cursor: string | null; limit: number };

/** Rows per read: about two screens of cards on a tall monitor, 100 KB of JSON. */
const PAGE_SIZE = 100;
/** Typing waits this long before a read, so a word typed fast is one read, not one a letter. */
const FILTER_SETTLE_MS = 150;

/** The fields a page filter looks at: a patch without any of them cannot move a device in or out. */
const FILTERED_FIELDS = [
  'label',
  'address',
  'brand',
  'location_group',
  'location_id',
  'market_partners',
  'is_online',
  'is_warning',
  'is_maintenance',
  'is_pause',
  'is_registration',
  'battery_percent',
] as const;

const touchesFilter = (patches: Record<string, DevicePatch>) =>
  Object.values(patches).some((patch) => FILTERED_FIELDS.some((field) => field in patch));

/** The rows with the patches of the devices they hold applied; the same array when none is held. */
function patchRows(rows: readonly Device[], patches: Record<string, DevicePatch>): Device[] {
  let next: Device[] | null = null;
  rows.forEach((row, at) => {
    const patch = patches[row.serial];
    if (!patch) return;
    next ??= [...rows];
    next[at] = { ...row, ...patch, serial: row.serial } as Device;
  });
  return next ?? (rows as Device[]);
}

/** Same filter, whatever the order of its keys and whether empty values are there or left out. */
export function filterKey(filter: PageFilter | null): string {
  if (!filter) return '';
  const entries = Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Numbers each list for its live subscriptions (keepLive). */
let listCount = 0;

export function createDevicePageList({ limit = PAGE_SIZE }: { limit?: number } = {}) {
  /** Show the list for this filter now (a list opened, a dropdown chosen): the first page is read. */
  const opened = createEvent<PageFilter>();
  /** The filter changed while typing: read once it has settled for FILTER_SETTLE_MS. */
  const filterTyped = createEvent<PageFilter>();
  /** The view scrolled near the last row held: the next page, if any and none is on its way. */
  const moreRequested = createEvent();
  /** Read the first page again, same filter (after a write that may have moved rows). */
  const reloaded = createEvent();
  const closed = createEvent();

  const fetchPageFx = createApiFx<PageRead, DevicePage>(
    async ({ filter, cursor, limit: size }) =>
      (await call(devicesApi.page, { query: { ...filter, limit: size, ...(cursor ? { cursor } : {}) } })) as DevicePage,
  );
  const fetchTotalFx = createApiFx<PageFilter, number>(
    async (filter) => (await call(devicesApi.page, { query: { ...filter, limit: 1 } })).total,
  );
  const settleFx = createEffect(() => new Promise<void>((resolve) => setTimeout(resolve, FILTER_SETTLE_MS)));

  const $filter = createStore<PageFilter | null>(null, { serialize: 'ignore' });
  /** The filter typed and not read yet. */
  const $typed = createStore<PageFilter | null>(null, { serialize: 'ignore' });
  const $items = createStore<Device[]>([], { serialize: 'ignore' });
  const $nextCursor = createStore<string | null>(null, { serialize: 'ignore' });
  const $total = createStore<number | null>(null, { serialize: 'ignore' });
  const $status = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle', { serialize: 'ignore' });
  const $hasMore = $nextCursor.map((cursor) => cursor !== null);
  const $loadingMore = combine(fetchPageFx.pending, $items, (pending, items) => pending && items.length > 0);

  const firstPage = createEvent<PageFilter>();
  sample({ clock: opened, target: firstPage });
  sample({ clock: reloaded, source: $filter, filter: Boolean, target: firstPage });
  $typed.on(filterTyped, (_, filter) => filter).reset(opened, closed, devicesCleared);
  sample({ clock: filterTyped, source: settleFx.pending, filter: (pending) => !pending, fn: () => undefined, target: settleFx });
  sample({
    clock: settleFx.finally,
    source: { typed: $typed, filter: $filter },
    filter: ({ typed, filter }) => typed !== null && filterKey(typed) !== filterKey(filter),
    fn: ({ typed }) => typed!,
    target: firstPage,
  });
  $typed.reset(firstPage);

  $filter.on(firstPage, (_, filter) => filter).reset(closed, devicesCleared);
  // A new filter empties the rows at once: rows of the old filter under the new title would mislead.
  $items.reset(firstPage, closed, devicesCleared);
  $nextCursor.reset(firstPage, closed, devicesCleared);
  $total.reset(closed, devicesCleared);
  sample({ clock: firstPage, fn: (filter): PageRead => ({ filter, cursor: null, limit }), target: fetchPageFx });
  sample({
    clock: moreRequested,
    source: { filter: $filter, cursor: $nextCursor, pending: fetchPageFx.pending },
    filter: ({ filter, cursor, pending }) => filter !== null && cursor !== null && !pending,
    fn: ({ filter, cursor }): PageRead => ({ filter: filter!, cursor, limit }),
    target: fetchPageFx,
  });

  // An answer counts only for the filter still shown and the page it asked after (a slower answer to an
  // older search must not land under the new one).
  const pageArrived = sample({
    clock: fetchPageFx.done,
    source: { filter: $filter, items: $items, cursor: $nextCursor },
    filter: ({ filter, items, cursor }, { params }) =>
      filterKey(filter) === filterKey(params.filter) &&
      (params.cursor === null ? true : params.cursor === cursor && items.length > 0),
    fn: ({ items }, { params, result }) => ({
      items: params.cursor === null ? result.items : appendNew(items, result.items),
      nextCursor: result.nextCursor,
      total: result.total,
    }),
  });
  $items.on(pageArrived, (_, page) => page.items);
  // The rows held are kept live: their devices' pushes are subscribed while the list holds them.
  keepLive(
    `page-list-${++listCount}`,
    $items.map((items) => items.map((d) => d.serial)),
  );
  $nextCursor.on(pageArrived, (_, page) => page.nextCursor);
  $total.on(pageArrived, (_, page) => page.total);
  $status
    .on(firstPage, () => 'loading')
    .on(pageArrived, () => 'ready')
    .on(
      sample({
        clock: fetchPageFx.fail,
        source: $filter,
        filter: (filter, { params }) => filterKey(filter) === filterKey(params.filter),
      }),
      (status) => (status === 'ready' ? status : 'failed'),
    )
    .reset(closed, devicesCleared);

  // Live rows and count.
  $items
    .on(devicesPatched, patchRows)
    .on(deviceAnswered, (rows, device) => patchRows(rows, { [device.serial]: listFieldsOf(device) }));
  sample({
    clock: devicesPatched,
    source: { filter: $filter, pending: fetchTotalFx.pending, status: $status },
    filter: ({ filter, pending, status }, patches) => filter !== null && status === 'ready' && !pending && touchesFilter(patches),
    fn: ({ filter }) => filter!,
    target: fetchTotalFx,
  });
  $total.on(
    sample({
      clock: fetchTotalFx.done,
      source: $filter,
      filter: (filter, { params }) => filterKey(filter) === filterKey(params),
      fn: (_, { result }) => result,
    }),
    (_, total) => total,
  );

  return {
    opened,
    filterTyped,
    moreRequested,
    reloaded,
    closed,
    fetchPageFx,
    fetchTotalFx,
    settleFx,
    $filter,
    $items,
    $total,
    $status,
    $hasMore,
    $loadingMore,
  };
}

/** A page appended, without a row already held (a device that moved past the cursor between reads). */
function appendNew(items: readonly Device[], page: readonly Device[]): Device[] {
  const held = new Set(items.map((d) => d.serial));
  return [...items, ...page.filter((d) => !held.has(d.serial))];
}
