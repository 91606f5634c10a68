import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { createRedis } from '@fleet/workers';
import type { ScopeViewer } from '../access/scope.ts';

/**
 * Fleet aggregates (overview, deviceGroup, county counts) computed once per scope and reused: each is a
 * scan of every device in scope (40-50 ms at 10,000 devices), which at 50 concurrent callers was p99
 * 4-9 s. With this, a call costs a map lookup; the scan runs at most once per `ttlMs` per scope, behind
 * the callers (they get the previous value meanwhile, for up to `staleMs`), and callers with nothing to
 * be given share one scan.
 *
 * What keeps it right:
 * - A portal write (any non-GET /api/v1 call answered 2xx: device controls, brand and batch changes,
 *   assignments that change a scope) empties the cache of every process: in process at once (every cache
 *   over the same database), and through the Redis channel `{prefix}aggregates:changed` for the others.
 * - Device check-ins do not empty it: their effect on the counts is seen within `ttlMs` (2 s), well within
 *   the 20 s the pollers push overviews at (a value may carry its own expiry).
 * - Sized values (ready answers, EntryOptions.bytes) share a byte budget besides the count of entries.
 * - A poll nudged by a portal write asks with `Cache-Control: no-cache` (poller.ts) and gets a fresh scan,
 *   whatever order the Redis messages arrive in.
 */
export type AggregateCache = {
  /**
   * The value of `key`, computed by `compute` when absent, expired or `fresh` is asked for. A refresh behind
   * an expired value is given that value (`previous`), e.g. to make what callers asked of it ready before the
   * swap (cached-json's encodedLike).
   */
  get<T>(key: string, compute: (previous?: Promise<T>) => Promise<T>, fresh?: boolean, opts?: EntryOptions<T>): Promise<T>;
  /** Forgets every value here and in the other processes. */
  invalidate(): void;
  close(): Promise<void>;
};

/** Per value: its own expiry (staleness twice that), and its size in bytes for the cache's byte budget. */
export type EntryOptions<T> = {
  ttlMs?: number;
  /** The value's size, asked again each time the budget is checked: a value still being produced may grow. */
  bytes?: (value: T) => number;
  /**
   * For a value handed out before it is whole (a streamed answer, lib/streamed-json.ts): settles when it is
   * complete. A rejection drops the entry as a failed computation is dropped; completion starts its expiry
   * and checks the budget again. A refresh replaces the expired value only once whole, so its callers never
   * wait on the refresh.
   */
  settled?: (value: T) => Promise<unknown>;
};

/** One cache key per scope: distributors share the fleet-wide values, each client and partner has its own. */
export function scopeKey(viewer: ScopeViewer): string {
  return viewer.access === 'distributor' ? 'fleet' : `${viewer.access}:${viewer.id}`;
}

/** A cache that keeps nothing (service unit tests, and callers who want every value fresh). */
export const noAggregateCache: AggregateCache = { get: (_key, compute) => compute(), invalidate() {}, async close() {} };

/** Caches over one database in this process (several apps in one process: tests, or a server beside its pollers' API). */
const sameDatabase = new WeakMap<object, Set<() => void>>();

export function aggregateCache(
  opts: {
    ttlMs?: number;
    /**
     * Past ttlMs and up to this age a value is answered while a refresh starts behind it; past it, only while
     * that refresh still runs (never after a write). An older value with no refresh running is computed anew
     * while its callers wait.
     */
    staleMs?: number;
    maxEntries?: number;
    /**
     * Bytes the sized values (EntryOptions.bytes: device lists and other ready answers) may hold together;
     * the oldest go first. One list of 10,000 devices is 11 MB: 500 scopes of lists would be gigabytes.
     */
    maxBytes?: number;
    redisUrl?: string | undefined;
    redisPrefix?: string;
    /** The database the values come from: every cache over it in this process is emptied together. */
    database?: object;
    log?: (m: string, e?: unknown) => void;
  } = {},
): AggregateCache {
  const ttlMs = opts.ttlMs ?? 2000;
  const staleMs = opts.staleMs ?? ttlMs * 2;
  const maxEntries = opts.maxEntries ?? 500;
  const maxBytes = opts.maxBytes ?? 96 * 1024 * 1024;
  type Entry = { at: number; value: Promise<unknown>; bytes: () => number };
  const entries = new Map<string, Entry>();
  const unsized = () => 0;
  /** Drops the oldest entries beyond the count and byte bounds (a Map iterates oldest first). */
  const trim = () => {
    const sizes = new Map<Entry, number>();
    let bytes = 0;
    for (const e of entries.values()) {
      sizes.set(e, e.bytes());
      bytes += sizes.get(e)!;
    }
    for (const [key, e] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      // Over the count, the oldest goes; over the bytes only, the oldest that holds some.
      if (entries.size <= maxEntries && !sizes.get(e)) continue;
      entries.delete(key);
      bytes -= sizes.get(e)!;
    }
  };
  /** Keeps `value` under `key` as the newest entry; a failed computation is not kept. */
  const store = <T>(key: string, value: Promise<T>, entryOpts: EntryOptions<T>) => {
    const entry: Entry = { at: Date.now(), value, bytes: unsized };
    entries.delete(key);
    entries.set(key, entry);
    trim();
    // A failed scan is not kept; an invalidation meanwhile already dropped the entry.
    const drop = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    value.then((v) => {
      if (entries.get(key) !== entry) return;
      const { bytes, settled } = entryOpts;
      if (bytes) {
        entry.bytes = () => bytes(v);
        trim();
      }
      settled?.(v).then(() => {
        if (entries.get(key) !== entry) return;
        // Its expiry counts from when it is whole: a read longer than ttlMs must not expire at birth.
        entry.at = Date.now();
        trim();
      }, drop);
    }, drop);
    return entry;
  };
  const channel = `${opts.redisPrefix ?? 'fleet:'}aggregates:changed`;
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  const log = opts.log ?? (() => undefined);

  // Subscribed from the start: another process's write must empty this cache even before its first use.
  const clear = () => entries.clear();
  const peers = opts.database ? (sameDatabase.get(opts.database) ?? new Set<() => void>()) : new Set<() => void>();
  if (opts.database) sameDatabase.set(opts.database, peers);
  peers.add(clear);
  if (opts.redisUrl) {
    sub = createRedis(opts.redisUrl, 'blocking', { lazyConnect: true });
    sub.on('error', (err) => log('aggregate cache redis error', err));
    sub.on('message', () => entries.clear());
    sub.subscribe(channel).catch((err) => log('aggregate cache subscribe failed', err));
  }

  const refreshing = new Set<string>();
  return {
    get<T>(
      key: string,
      compute: (previous?: Promise<T>) => Promise<T>,
      fresh = false,
      entryOpts: EntryOptions<T> = {},
    ): Promise<T> {
      const ttl = entryOpts.ttlMs ?? ttlMs;
      const stale = entryOpts.ttlMs === undefined ? staleMs : ttl * 2;
      const hit = entries.get(key);
      const age = hit ? Date.now() - hit.at : Infinity;
      if (hit && !fresh && age < ttl) return hit.value as Promise<T>;
      // Past its staleness while its refresh still runs (a slow scan on a loaded host): answered with it until
      // that refresh is swapped in, not with a second scan of the same value that every caller waits on. At
      // 100,000 devices a refresh of the sites took 1.8 s on a loaded slow host, so values passed 4 s and each
      // pass started another scan behind the running one (PERFORMANCE.md, issue 46). A write still empties it.
      if (hit && !fresh && refreshing.has(key)) return hit.value as Promise<T>;
      // Expired but not emptied by a write: answer with it while one scan refreshes it behind, so callers
      // never queue behind the scan (the 11 MB list takes a few hundred ms to read and compress).
      if (hit && !fresh && age < stale) {
        if (!refreshing.has(key)) {
          refreshing.add(key);
          const next = compute(hit.value as Promise<T>);
          // Kept only if no write emptied the cache meanwhile (the entry is still the one refreshed).
          const swap = () => {
            if (entries.get(key) === hit) store(key, next, entryOpts);
          };
          next
            .then((v) => (entryOpts.settled ? entryOpts.settled(v).then(swap) : swap()))
            .catch((err) => log(`aggregate ${key} refresh failed`, err))
            .finally(() => refreshing.delete(key));
        }
        return hit.value as Promise<T>;
      }
      return store(key, compute(), entryOpts).value as Promise<T>;
    },
    invalidate() {
      for (const peer of peers) peer();
      if (!opts.redisUrl) return;
      if (!pub) {
        pub = createRedis(opts.redisUrl, 'publish');
        pub.on('error', (err) => log('aggregate cache redis error', err));
      }
      // Lost, the others' entries still expire within ttlMs.
      pub.publish(channel, '1').catch((err) => log('aggregate cache invalidation not sent', err));
    },
    async close() {
      peers.delete(clear);
      pub?.disconnect();
      sub?.disconnect();
      entries.clear();
    },
  };
}

/**
 * Empties the cache when a portal write answers 2xx: as its headers are written, after its transaction
 * committed and before the caller can read the answer, so the caller's next read is never served stale.
 */
export function invalidateAfterWrites(cache: AggregateCache): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
      const writeHead = res.writeHead;
      res.writeHead = function (this: typeof res, ...args: unknown[]) {
        const status = typeof args[0] === 'number' ? args[0] : res.statusCode;
        if (status < 300) cache.invalidate();
        return (writeHead as (...a: unknown[]) => typeof res).apply(this, args);
      } as typeof res.writeHead;
    }
    next();
  };
}

/** True when the caller asks for a fresh value (`Cache-Control: no-cache`, as a nudged poll does). */
export const wantsFresh = (header: string | undefined) => !!header && /\bno-cache\b/i.test(header);
