import type { Redis } from 'ioredis';
import { createRedis } from '../redis.ts';
import type { NudgeSource } from './poller.ts';

/**
 * Nudges: a portal write names the devices it changed, and whichever process polls their subjects polls
 * them now (poller.ts). In one process a listener call; with Redis a channel every poller process
 * subscribes to (each then checks locally whether it owns the subjects: no Redis call per subject).
 */
export type PollNudger = {
  /** Devices whose answers a portal write changed (after its transaction committed). */
  devicesChanged(serials: string[]): void;
  /** What this process's pollers listen to. */
  source: NudgeSource;
  close(): Promise<void>;
};

const channelOf = (prefix: string, name = 'poll:nudge') => `${prefix}${name}`;

export function pollNudger(
  opts: {
    redisUrl?: string | undefined;
    redisPrefix?: string;
    /** The channel's name after the prefix: 'poll:nudge' by default; the pin deltas' changes use their own. */
    channel?: string;
    log?: (m: string, e?: unknown) => void;
  } = {},
): PollNudger {
  const listeners = new Set<(serials: string[]) => void>();
  const channel = channelOf(opts.redisPrefix ?? 'fleet:', opts.channel);
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  const log = opts.log ?? (() => undefined);
  return {
    devicesChanged(serials) {
      if (!serials.length) return;
      if (!opts.redisUrl) {
        for (const listener of listeners) listener(serials);
        return;
      }
      if (!pub) {
        pub = createRedis(opts.redisUrl, 'publish');
        pub.on('error', (err) => log('poll nudge redis error', err));
      }
      // A lost nudge costs only speed: the subject is still polled at its period.
      pub.publish(channel, JSON.stringify(serials)).catch((err) => log('poll nudge not sent', err));
    },
    source: {
      subscribe(listener) {
        listeners.add(listener);
        if (opts.redisUrl && !sub) {
          sub = createRedis(opts.redisUrl, 'blocking');
          sub.on('error', (err) => log('poll nudge redis error', err));
          sub.on('message', (_channel: string, message: string) => {
            let serials: unknown;
            try {
              serials = JSON.parse(message);
            } catch {
              return;
            }
            if (!Array.isArray(serials)) return;
            const list = serials.filter((s): s is string => typeof s === 'string');
            for (const l of listeners) l(list);
          });
          sub.subscribe(channel).catch((err) => log('poll nudge subscribe failed', err));
        }
        return () => void listeners.delete(listener);
      },
    },
    async close() {
      pub?.disconnect();
      sub?.disconnect();
      pub = sub = undefined;
      listeners.clear();
    },
  };
}
