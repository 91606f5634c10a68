import type { Redis } from 'ioredis';

/** The last answer of a subject and when it was polled (a new owner keeps to the period from there). */
export type Snapshot = { at: number; value: unknown };

/**
 * Who polls which subject, and the last snapshot of each. Ownership is decided in bulk (shards of
 * subjects with a lease each), never per subject per tick: before, every process tried a Redis SET NX for
 * every watched subject four times a second, 160,000 calls a second at 10,000 subjects on 4 processes.
 */
export interface PollState {
  /** Keeps this process's share of the subjects; cheap to call every tick (does I/O only when a renewal is due). */
  refresh(): Promise<void>;
  /** Whether this process polls the subject now (no I/O). */
  owns(key: string): boolean;
  getSnapshot(key: string): Promise<Snapshot | undefined>;
  setSnapshot(key: string, snapshot: Snapshot, ttlMs: number): Promise<void>;
  dropSnapshot(key: string): Promise<void>;
  /** Gives up this process's share at once (shutdown), so the others take it over without waiting for the lease. */
  release(): Promise<void>;
}

/** One process: it owns every subject. */
export function memoryPollState(): PollState {
  const snapshots = new Map<string, Snapshot>();
  return {
    async refresh() {},
    owns: () => true,
    async getSnapshot(key) {
      return snapshots.get(key);
    },
    async setSnapshot(key, snapshot) {
      snapshots.set(key, snapshot);
    },
    async dropSnapshot(key) {
      snapshots.delete(key);
    },
    async release() {},
  };
}

/** FNV-1a: a stable shard per subject key, the same in every process. */
export function shardOf(key: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/**
 * One call a renewal: the process's heartbeat in a sorted set of pollers (stale ones dropped), then its
 * fair share of the shards (ceil(shards / live pollers)): renew the leases it holds, hand back any above
 * its share so a newcomer gets some, take free ones up to its share. Answers its share, then the shards it holds.
 * Keys are built from ARGV[5] (the client's key prefix is not applied to keys made inside a script).
 */
const BALANCE = `
local me, lease, shards, prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[5]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, me)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - lease)
redis.call('PEXPIRE', KEYS[1], lease * 4)
local fair = math.ceil(shards / redis.call('ZCARD', KEYS[1]))
local held, free = {}, {}
for i = 0, shards - 1 do
  local k = prefix .. i
  local v = redis.call('GET', k)
  if v == me then
    if #held < fair then
      redis.call('PEXPIRE', k, lease)
      held[#held + 1] = i
    else
      redis.call('DEL', k)
    end
  elseif not v then
    free[#free + 1] = i
  end
end
for _, i in ipairs(free) do
  if #held >= fair then break end
  redis.call('SET', prefix .. i, me, 'PX', lease)
  held[#held + 1] = i
end
if ARGV[4] == 'release' then
  for _, i in ipairs(held) do redis.call('DEL', prefix .. i) end
  redis.call('ZREM', KEYS[1], me)
  return {fair}
end
table.insert(held, 1, fair)
return held
`;

export type RedisPollStateOptions = {
  /** Who this poller is (unique per process). */
  processId: string;
  /** Subjects are split into this many shards, each polled by one process at a time. */
  shards?: number;
  /** How long a shard stays with a process that stopped renewing (crashed): others take it after this. */
  leaseMs?: number;
  /** How often a process short of its share asks again (a few calls, only while shards change hands). */
  rebalanceMs?: number;
};

/**
 * Redis: subjects are partitioned into shards, each held by one process under a lease renewed every
 * third of the lease in one script call, whatever the number of subjects; snapshots live beside them.
 * A process that stops renewing (crash) loses its shards after `leaseMs`; one that joins gets its share
 * at the next renewals. Between renewals, ownership is a local lookup.
 */
export function redisPollState(redis: Redis, opts: RedisPollStateOptions): PollState {
  const shards = opts.shards ?? 64;
  const leaseMs = opts.leaseMs ?? 6000;
  const rebalanceMs = opts.rebalanceMs ?? 250;
  const prefix = (redis.options.keyPrefix ?? '') as string;
  let held = new Set<number>();
  let renewedAt = 0;
  let renewing: Promise<void> | undefined;
  let short = false;
  const balance = async (mode: 'keep' | 'release') => {
    const [fair, ...mine] = (
      (await redis.eval(BALANCE, 1, 'pollers', opts.processId, leaseMs, shards, mode, `${prefix}pollshard:`)) as number[]
    ).map(Number);
    held = new Set(mine);
    short = held.size < fair!;
  };
  return {
    refresh() {
      // Renewed every third of the lease: a late renewal or two never loses a shard to another process.
      // Short of its share (just started, or a poller left), it asks every `rebalanceMs` until it has it,
      // so shards another process hands back are polled again within that time.
      if (Date.now() - renewedAt < (short ? rebalanceMs : leaseMs / 3)) return Promise.resolve();
      renewing ??= balance('keep')
        .then(() => void (renewedAt = Date.now()))
        .catch((err) => {
          // Unsure whether the leases still hold: poll nothing rather than twice.
          held = new Set();
          throw err;
        })
        .finally(() => (renewing = undefined));
      return renewing;
    },
    owns: (key) => held.has(shardOf(key, shards)),
    async getSnapshot(key) {
      const v = await redis.get(`snap:${key}`);
      if (v == null) return undefined;
      const parsed = JSON.parse(v) as Snapshot;
      return typeof parsed === 'object' && parsed && 'at' in parsed ? parsed : undefined;
    },
    async setSnapshot(key, snapshot, ttlMs) {
      await redis.set(`snap:${key}`, JSON.stringify(snapshot), 'PX', ttlMs);
    },
    async dropSnapshot(key) {
      await redis.del(`snap:${key}`);
    },
    async release() {
      held = new Set();
      await balance('release').catch(() => undefined);
      held = new Set();
    },
  };
}
