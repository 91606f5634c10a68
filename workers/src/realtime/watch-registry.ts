import type { Redis } from 'ioredis';
import type { SubscriptionTopic } from '@fleet/shared';

/**
 * Which subjects some browser is watching, per topic, across every server process. Pollers poll only
 * these; when the last watcher leaves, the subject drops out and its polling stops.
 */
export interface WatchRegistry {
  add(topic: SubscriptionTopic, subject: string): Promise<void>;
  remove(topic: SubscriptionTopic, subject: string): Promise<void>;
  watched(topic: SubscriptionTopic): Promise<string[]>;
  close(): Promise<void>;
}

/** Counts watchers per subject in this process. */
export class LocalWatchCounts {
  private readonly counts = new Map<string, number>();
  /** Answers true when this is the first watcher of the subject. */
  add(topic: string, subject: string): boolean {
    const k = `${topic}\u0000${subject}`;
    const n = (this.counts.get(k) ?? 0) + 1;
    this.counts.set(k, n);
    return n === 1;
  }
  /** Answers true when the last watcher of the subject left. */
  remove(topic: string, subject: string): boolean {
    const k = `${topic}\u0000${subject}`;
    const n = (this.counts.get(k) ?? 0) - 1;
    if (n > 0) this.counts.set(k, n);
    else this.counts.delete(k);
    return n <= 0;
  }
  subjects(topic: string): string[] {
    const prefix = `${topic}\u0000`;
    return [...this.counts.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }
}

export function memoryWatchRegistry(): WatchRegistry {
  const counts = new LocalWatchCounts();
  return {
    async add(topic, subject) {
      counts.add(topic, subject);
    },
    async remove(topic, subject) {
      counts.remove(topic, subject);
    },
    async watched(topic) {
      return counts.subjects(topic);
    },
    async close() {},
  };
}

/**
 * Shared through Redis: each server process keeps its own set per topic (`watch:{topic}:{process}`),
 * refreshed by a heartbeat and expiring with the process, so a crashed server's watches vanish on their
 * own; the watched subjects are the union of the live sets.
 *
 * Readers (the pollers) keep the union in memory and read it again only when a process announces a
 * change on the `watch:changed` channel (a first watcher of a subject in that process, or its last one
 * leaving), or every `rereadMs` to notice sets of crashed processes expiring: reading the union four
 * times a second per topic was a fixed cost of every poll tick.
 */
export function redisWatchRegistry(redis: Redis, processId: string, ttlSeconds = 30, rereadMs = 30_000): WatchRegistry {
  const counts = new LocalWatchCounts();
  const topics = new Set<SubscriptionTopic>();
  const key = (topic: string) => `watch:${topic}:${processId}`;
  // Channels carry no key prefix in ioredis: add the client's own so deployments sharing a Redis stay apart.
  const channel = `${(redis.options.keyPrefix ?? '') as string}watch:changed`;
  const cache = new Map<SubscriptionTopic, { at: number; subjects: Promise<string[]> }>();
  let subscriber: Redis | undefined;
  const listen = async () => {
    if (subscriber) return;
    subscriber = redis.duplicate({ keyPrefix: '' });
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, topic: string) => void cache.delete(topic as SubscriptionTopic));
    await subscriber.subscribe(channel);
  };
  const refresh = async () => {
    const multi = redis.multi();
    for (const topic of topics) {
      const subjects = counts.subjects(topic);
      multi.del(key(topic));
      if (subjects.length) {
        multi.sadd(key(topic), ...subjects);
        multi.expire(key(topic), ttlSeconds);
        multi.sadd(`watch:${topic}:processes`, processId);
      }
    }
    await multi.exec();
  };
  const timer = setInterval(() => void refresh().catch(() => undefined), (ttlSeconds * 1000) / 3);
  timer.unref();
  async function readUnion(topic: SubscriptionTopic): Promise<string[]> {
    const processes = await redis.smembers(`watch:${topic}:processes`);
    if (!processes.length) return [];
    const keys = processes.map((p) => `watch:${topic}:${p}`);
    const alive = await Promise.all(keys.map((k) => redis.exists(k)));
    const dead = processes.filter((_, i) => !alive[i]);
    if (dead.length) await redis.srem(`watch:${topic}:processes`, ...dead);
    const live = keys.filter((_, i) => alive[i]);
    return live.length ? redis.sunion(...live) : [];
  }
  return {
    async add(topic, subject) {
      topics.add(topic);
      if (counts.add(topic, subject)) {
        await redis
          .multi()
          .sadd(key(topic), subject)
          .expire(key(topic), ttlSeconds)
          .sadd(`watch:${topic}:processes`, processId)
          .publish(channel, topic)
          .exec();
      }
    },
    async remove(topic, subject) {
      if (counts.remove(topic, subject)) await redis.multi().srem(key(topic), subject).publish(channel, topic).exec();
    },
    async watched(topic) {
      await listen();
      const cached = cache.get(topic);
      if (cached && Date.now() - cached.at < rereadMs) return cached.subjects;
      // Cached before the read ends: a change announced meanwhile deletes it, and the next call reads again.
      const entry = { at: Date.now(), subjects: readUnion(topic) };
      cache.set(topic, entry);
      entry.subjects.catch(() => {
        if (cache.get(topic) === entry) cache.delete(topic);
      });
      return entry.subjects;
    },
    async close() {
      clearInterval(timer);
      subscriber?.disconnect();
      const multi = redis.multi();
      for (const topic of topics) multi.del(key(topic)).srem(`watch:${topic}:processes`, processId).publish(channel, topic);
      await multi.exec();
    },
  };
}
