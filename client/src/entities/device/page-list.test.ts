import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fakeDevice } from './lib/fake-device';
import { devicesPatched } from './model';
import { createDevicePageList, filterKey, type DevicePage, type PageFilter } from './page-list';

const list = createDevicePageList({ limit: 2 });
const serials = (scope: ReturnType<typeof fork>) => scope.getState(list.$items).map((d) => d.serial);

/** A server of 5 devices A1..A5 in id order, two a page; the cursor is the last serial of the page. */
function fakeServer(reads: { filter: PageFilter; cursor: string | null }[] = []) {
  const all = ['A1', 'A2', 'A3', 'A4', 'A5'].map((s, i) => fakeDevice(s, { id: i + 1, is_online: i % 2 === 0 }));
  return async ({ filter, cursor, limit }: { filter: PageFilter; cursor: string | null; limit: number }): Promise<DevicePage> => {
    reads.push({ filter, cursor });
    const matching = all.filter(
      (d) => (filter.status === 'online' ? d.is_online : true) && (!filter.q || d.serial.includes(filter.q)),
    );
    const from = cursor ? matching.findIndex((d) => d.serial === cursor) + 1 : 0;
    const items = matching.slice(from, from + limit);
    const last = items.at(-1);
    return { items, nextCursor: from + limit < matching.length && last ? last.serial : null, total: matching.length };
  };
}

describe('a device list paged by the server', () => {
  it('reads the first page on open and the next ones as the view asks, with the server total', async () => {
    const reads: { filter: PageFilter; cursor: string | null }[] = [];
    const scope = fork({ handlers: [[list.fetchPageFx, fakeServer(reads)]] });
    await allSettled(list.opened, { scope, params: {} });
    expect(serials(scope)).toEqual(['A1', 'A2']);
    expect(scope.getState(list.$total)).toBe(5);
    expect(scope.getState(list.$hasMore)).toBe(true);
    await allSettled(list.moreRequested, { scope });
    await allSettled(list.moreRequested, { scope });
    expect(serials(scope)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5']);
    expect(scope.getState(list.$hasMore)).toBe(false);
    // No read past the last page.
    await allSettled(list.moreRequested, { scope });
    expect(reads.map((r) => r.cursor)).toEqual([null, 'A2', 'A4']);
  });

  it('a filter is the server’s: status and search go in the query, and a new filter starts from its first page', async () => {
    const reads: { filter: PageFilter; cursor: string | null }[] = [];
    const scope = fork({ handlers: [[list.fetchPageFx, fakeServer(reads)]] });
    await allSettled(list.opened, { scope, params: {} });
    await allSettled(list.opened, { scope, params: { status: 'online' } });
    expect(serials(scope)).toEqual(['A1', 'A3']);
    expect(scope.getState(list.$total)).toBe(3);
    expect(reads.at(-1)).toEqual({ filter: { status: 'online' }, cursor: null });
  });

  it('typing reads once the text settles, and an older answer never lands under a newer search', async () => {
    const reads: { filter: PageFilter; cursor: string | null }[] = [];
    let settle!: () => void;
    const server = fakeServer(reads);
    const scope = fork({
      handlers: [
        [list.fetchPageFx, server],
        [list.settleFx, () => new Promise<void>((resolve) => (settle = resolve))],
      ],
    });
    await allSettled(list.opened, { scope, params: {} });
    const typing = allSettled(list.filterTyped, { scope, params: { q: 'A' } });
    void allSettled(list.filterTyped, { scope, params: { q: 'A3' } });
    expect(reads).toHaveLength(1);
    settle();
    await typing;
    expect(reads).toHaveLength(2);
    expect(reads[1]!.filter).toEqual({ q: 'A3' });
    expect(serials(scope)).toEqual(['A3']);
  });

  it('drops a page answered for a filter no longer shown', async () => {
    let slow!: (page: DevicePage) => void;
    const server = fakeServer();
    const scope = fork({
      handlers: [
        [
          list.fetchPageFx,
          (read: { filter: PageFilter; cursor: string | null; limit: number }) =>
            read.filter.q === 'slow' ? new Promise<DevicePage>((resolve) => (slow = resolve)) : server(read),
        ],
      ],
    });
    const first = allSettled(list.opened, { scope, params: { q: 'slow' } });
    const second = allSettled(list.opened, { scope, params: { status: 'online' } });
    // The newer read answers first; the older one after it.
    await new Promise((resolve) => setTimeout(resolve, 10));
    slow({ items: [fakeDevice('Z9')], nextCursor: null, total: 1 });
    await Promise.all([first, second]);
    expect(serials(scope)).toEqual(['A1', 'A3']);
    expect(scope.getState(list.$total)).toBe(3);
  });

  it('a pushed change updates its row at once and reads the count again; the rows stay until the next read', async () => {
    let totals = 0;
    const scope = fork({
      handlers: [
        [list.fetchPageFx, fakeServer()],
        [list.fetchTotalFx, async () => (totals += 1) && 2],
      ],
    });
    await allSettled(list.opened, { scope, params: { status: 'online' } });
    await allSettled(devicesPatched, { scope, params: { A1: { is_online: false, battery_percent: 20 } } });
    expect(scope.getState(list.$items)[0]).toMatchObject({ serial: 'A1', is_online: false, battery_percent: 20 });
    expect(serials(scope)).toEqual(['A1', 'A3']);
    expect(scope.getState(list.$total)).toBe(2);
    // A change of a field no filter reads costs no count.
    await allSettled(devicesPatched, { scope, params: { A3: { volume_remain: 10 } } });
    expect(totals).toBe(1);
  });

  it('compares filters by their values, not their key order or empty parts', () => {
    expect(filterKey({ q: 'a', brand: 2 })).toBe(filterKey({ brand: 2, q: 'a', county: undefined }));
    expect(filterKey({ q: '' })).toBe(filterKey({}));
    expect(filterKey({ q: 'a' })).not.toBe(filterKey({ q: 'b' }));
  });
});
