import express from 'express';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aggregateCache, invalidateAfterWrites, scopeKey, wantsFresh } from './aggregate-cache.ts';

describe('aggregate cache', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const counter = () => {
    let n = 0;
    return { compute: async () => ++n, calls: () => n };
  };

  it('computes once per key within the expiry, shared by concurrent callers', async () => {
    const cache = aggregateCache({ ttlMs: 2000, staleMs: 5000 });
    const c = counter();
    const values = await Promise.all(Array.from({ length: 50 }, () => cache.get('k', c.compute)));
    expect(values).toEqual(new Array(50).fill(1));
    expect(c.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(await cache.get('k', c.compute)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    // Expired: the old value answers at once while one refresh runs behind; then the new one.
    expect(await Promise.all([cache.get('k', c.compute), cache.get('k', c.compute)])).toEqual([1, 1]);
    expect(c.calls()).toBe(2);
    expect(await cache.get('k', c.compute)).toBe(2);
    // Too old to answer with: computed while the caller waits.
    await vi.advanceTimersByTimeAsync(5000);
    expect(await cache.get('k', c.compute)).toBe(3);
    expect(await cache.get('other', c.compute)).toBe(4);
  });

  it('gives a refresh behind an expired value that value; a first computation or a fresh one gets none', async () => {
    const cache = aggregateCache({ ttlMs: 2000, staleMs: 5000 });
    const seen: (number | undefined)[] = [];
    let n = 0;
    const compute = async (previous?: Promise<number>) => {
      seen.push(await previous);
      return ++n;
    };
    expect(await cache.get('k', compute)).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await cache.get('k', compute)).toBe(1); // the refresh runs behind
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', compute)).toBe(2);
    expect(await cache.get('k', compute, true)).toBe(3);
    expect(seen).toEqual([undefined, 1, undefined]);
  });

  it('answers a value past its staleness while its refresh still runs, with one scan, not a second one', async () => {
    const cache = aggregateCache({ ttlMs: 2000, staleMs: 4000 });
    let scans = 0;
    let finish: (v: string) => void = () => undefined;
    const slow = () => {
      scans += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    expect(await cache.get('k', async () => 'first')).toBe('first');
    await vi.advanceTimersByTimeAsync(2000);
    expect(await cache.get('k', slow)).toBe('first'); // the refresh starts behind
    await vi.advanceTimersByTimeAsync(5000); // now 7 s old, the refresh still running
    expect(await Promise.all([cache.get('k', slow), cache.get('k', slow)])).toEqual(['first', 'first']);
    expect(scans).toBe(1);
    finish('second');
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', slow)).toBe('second');
    // After a write the old value is never answered, refresh or not.
    await vi.advanceTimersByTimeAsync(2000);
    expect(await cache.get('k', slow)).toBe('second');
    cache.invalidate();
    const after = cache.get('k', async () => 'after the write');
    expect(await after).toBe('after the write');
  });

  it('computes again when asked fresh or after an invalidation, and never keeps a failure', async () => {
    const cache = aggregateCache({ ttlMs: 60_000 });
    const c = counter();
    expect(await cache.get('k', c.compute)).toBe(1);
    expect(await cache.get('k', c.compute, true)).toBe(2);
    expect(await cache.get('k', c.compute)).toBe(2);
    cache.invalidate();
    expect(await cache.get('k', c.compute)).toBe(3);
    // A refresh that a write overtook is not kept.
    await vi.advanceTimersByTimeAsync(60_000);
    const old = cache.get('k', c.compute);
    cache.invalidate();
    expect(await old).toBe(3);
    expect(await cache.get('k', c.compute)).toBe(5);
    await expect(cache.get('bad', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('bad', async () => 'ok')).toBe('ok');
  });

  it('keeps at most maxEntries scopes, dropping the oldest', async () => {
    const cache = aggregateCache({ ttlMs: 60_000, maxEntries: 2 });
    const c = counter();
    await cache.get('a', c.compute);
    await cache.get('b', c.compute);
    await cache.get('c', c.compute);
    expect(await cache.get('b', c.compute)).toBe(2);
    expect(await cache.get('a', c.compute)).toBe(4);
  });

  it('keeps a value its own expiry when given one, and within a byte budget drops the oldest sized values', async () => {
    const cache = aggregateCache({ ttlMs: 2000, maxBytes: 100 });
    const c = counter();
    const long = { ttlMs: 5000 };
    expect(await cache.get('list', c.compute, false, long)).toBe(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(await cache.get('list', c.compute, false, long)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await cache.get('list', c.compute, false, long)).toBe(1); // stale: refreshed behind
    expect(await cache.get('list', c.compute, false, long)).toBe(2);

    const sized = (bytes: number) => ({ bytes: () => bytes });
    await cache.get('a', async () => 'a', false, sized(60));
    await cache.get('b', async () => 'b', false, sized(30));
    expect(await cache.get('a', async () => 'again')).toBe('a');
    await cache.get('c', async () => 'c', false, sized(30)); // 120 bytes: the oldest sized one (a) goes
    expect(await cache.get('a', async () => 'again')).toBe('again');
    expect(await cache.get('b', async () => 'again')).toBe('b');
    expect(await cache.get('list', c.compute, false, long)).toBe(2); // unsized values stay
  });

  it('keeps a value handed out before it is whole: counts its size as it grows, drops it if it fails, swaps a refresh in once whole', async () => {
    const cache = aggregateCache({ ttlMs: 2000, maxBytes: 100 });
    /** A value that grows until `finish`, like a streamed answer. */
    const growing = (name: string) => {
      let finish: (ok: boolean) => void = () => undefined;
      const done = new Promise<void>((resolve, reject) => (finish = (ok) => (ok ? resolve() : reject(new Error('lost')))));
      done.catch(() => undefined);
      return { name, size: 0, done, finish };
    };
    type Growing = ReturnType<typeof growing>;
    const opts = { bytes: (v: Growing) => v.size, settled: (v: Growing) => v.done };
    const a = growing('a');
    expect(await cache.get('a', async () => a, false, opts)).toBe(a);
    expect(await cache.get('a', async () => growing('again'), false, opts)).toBe(a); // shared while it grows
    a.size = 80;
    a.finish(true);
    await vi.advanceTimersByTimeAsync(0);
    const b = growing('b');
    await cache.get('b', async () => b, false, { ...opts, bytes: () => 30 }); // 110 bytes: a goes
    expect((await cache.get('a', async () => growing('a2'), false, opts)).name).toBe('a2');

    const failing = growing('failing');
    await cache.get('f', async () => failing, false, opts);
    failing.finish(false);
    await vi.advanceTimersByTimeAsync(0);
    expect((await cache.get('f', async () => growing('f2'), false, opts)).name).toBe('f2');

    // Expired: the whole value still answers while the refresh grows, and is replaced once that is whole.
    await vi.advanceTimersByTimeAsync(2000);
    const next = growing('next');
    expect((await cache.get('f', async () => next, false, opts)).name).toBe('f2');
    await vi.advanceTimersByTimeAsync(0);
    expect((await cache.get('f', async () => growing('other'), false, opts)).name).toBe('f2');
    next.finish(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('f', async () => growing('other'), false, opts)).toBe(next);

    // A value that took longer than its expiry to become whole is kept its expiry from then.
    const slow = growing('slow');
    await cache.get('s', async () => slow, false, opts);
    await vi.advanceTimersByTimeAsync(3000);
    slow.finish(true);
    await vi.advanceTimersByTimeAsync(1999);
    expect(await cache.get('s', async () => growing('other'), false, opts)).toBe(slow);
  });

  it('names scopes: distributors share one, clients and partners their own', () => {
    expect(scopeKey({ id: 1, access: 'distributor' })).toBe(scopeKey({ id: 2, access: 'distributor' }));
    expect(scopeKey({ id: 5, access: 'client' })).toBe('client:5');
    expect(scopeKey({ id: 5, access: 'market-partner' })).toBe('market-partner:5');
    expect(wantsFresh('no-cache')).toBe(true);
    expect(wantsFresh('max-age=0, no-cache')).toBe(true);
    expect(wantsFresh(undefined)).toBe(false);
  });
});

describe('invalidateAfterWrites', () => {
  it('empties the cache before a 2xx write answer reaches the caller; reads and refused writes keep it', async () => {
    let invalidations = 0;
    const cache = { get: async () => undefined, invalidate: () => void invalidations++, close: async () => {} };
    const app = express();
    app.use(invalidateAfterWrites(cache as never));
    app.get('/r', (_req, res) => void res.json({}));
    app.post('/w', (_req, res) => void res.json({ seen: invalidations }));
    app.post('/refused', (_req, res) => void res.status(400).json({}));
    await request(app).get('/r');
    await request(app).post('/refused');
    expect(invalidations).toBe(0);
    const res = await request(app).post('/w');
    expect(invalidations).toBe(1);
    expect(res.status).toBe(200);
  });
});

describe('caches over one database', () => {
  it('empty each other in process; a cache over another database keeps its values', async () => {
    const db = {};
    const [a, b, other] = [
      aggregateCache({ ttlMs: 60_000, database: db }),
      aggregateCache({ ttlMs: 60_000, database: db }),
      aggregateCache({ ttlMs: 60_000, database: {} }),
    ];
    let n = 0;
    const compute = async () => ++n;
    await Promise.all([a.get('k', compute), b.get('k', compute), other.get('k', compute)]);
    a.invalidate();
    expect(await b.get('k', compute)).toBe(4);
    expect(await other.get('k', compute)).toBe(3);
  });
});
