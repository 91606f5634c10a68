import type http from 'node:http';
import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedis } from '@fleet/workers';
import type { SubscriptionTopic } from '@fleet/shared';
import {
  memoryPollState,
  memoryWatchRegistry,
  pollCounters,
  pollNudger,
  redisPollState,
  redisWatchRegistry,
  startPollers,
  type NudgeSource,
} from '@fleet/workers';
import type { AuthService } from '../auth/index.ts';
import type { Db } from '../db/client.ts';
import { pinDeltas } from './pin-deltas.ts';
import { attachRealtime, type FleetIo } from './socket-server.ts';
import type { SessionHub } from './sessions.ts';
import type { DeviceAccessHub } from '../partners/index.ts';

/**
 * Push server and pollers for one process. With REDIS_URL, any number of processes cooperate: the
 * Socket.IO Redis adapter carries emits to every process's sockets, the watch registry and snapshots
 * live in Redis, and shards of subjects leased to one process each (poll-state.ts) let exactly one process
 * poll a subject each period. Without it, the same code runs in memory for the one-command default.
 */
export async function startRealtime(
  httpServer: http.Server,
  opts: {
    db: Db;
    auth: AuthService;
    /** The app's session ender (app.sessions): this push server ends the sockets of sessions that end. */
    sessions?: SessionHub;
    /** The app's device access hub (app.deviceAccess): a partner's sockets leave the rooms of devices taken from it. */
    deviceAccess?: DeviceAccessHub;
    /** The app's service plan events (app.servicePlanEvents): progress reaches the owners' sockets through this push server. */
    servicePlans?: { attach(io: FleetIo): void; detach(io: FleetIo): void };
    serviceToken: string;
    /** The device API the pollers read (this server by default; another deployment of the same API works). */
    deviceApiUrl: string;
    redisUrl?: string | undefined;
    /** Prefix of every Redis key and channel (tests and several deployments on one Redis). */
    redisPrefix?: string;
    periods?: Partial<Record<SubscriptionTopic, number>>;
    tickMs?: number;
    /** false: a `start:server` process; its sockets' watches go to Redis and `start:worker` processes poll. */
    pollers?: boolean;
    /** Counts upstream polls into the process's metrics (ops/metrics.ts) besides `counters`. */
    countPoll?: (topic: SubscriptionTopic) => void;
    /**
     * Portal writes' nudges for this process's pollers (app.nudges.source). Without it, with Redis, the
     * pollers subscribe to the nudge channel themselves; without either, writes wait for the next period.
     */
    nudges?: NudgeSource;
    /** Devices whose pins may have changed (app.pinChanges.source): the pin deltas' source (pin-deltas.ts). */
    pinChanges?: NudgeSource;
    log?: (m: string, e?: unknown) => void;
  },
) {
  const log = opts.log ?? (() => undefined);
  let redis: Redis | undefined;
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  if (opts.redisUrl) {
    const prefix = opts.redisPrefix ?? 'fleet:';
    redis = createRedis(opts.redisUrl, 'command', { lazyConnect: true, keyPrefix: prefix });
    await redis.connect();
    // The adapter names its channels itself (key option); its clients carry no key prefix.
    pub = createRedis(opts.redisUrl, 'command');
    sub = createRedis(opts.redisUrl, 'command');
    // Without a listener an unreachable Redis throws an unhandled 'error' and ends the process; ioredis
    // reconnects by itself, so a log line is all that is needed.
    for (const [name, r] of [
      ['state', redis],
      ['adapter pub', pub],
      ['adapter sub', sub],
    ] as const)
      r.on('error', (err) => log(`realtime redis (${name}) error`, err));
  }
  const processId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const registry = redis ? redisWatchRegistry(redis, processId) : memoryWatchRegistry();
  const socket = attachRealtime(httpServer, {
    db: opts.db,
    auth: opts.auth,
    registry,
    ...(pub && sub ? { redis: { pub, sub, channel: `${opts.redisPrefix ?? 'fleet:'}socket.io` } } : {}),
    log,
  });
  opts.sessions?.attach(socket.io);
  opts.deviceAccess?.attach(socket.io);
  opts.servicePlans?.attach(socket.io);
  // Each process sends its own sockets their deltas (io.local): every process hears every change.
  const pins = opts.pinChanges
    ? pinDeltas({
        db: opts.db,
        changes: opts.pinChanges,
        watchers: () =>
          [...socket.io.of('/').adapter.rooms.keys()]
            .filter((room) => room.startsWith('pins:'))
            .map((room) => Number(room.slice('pins:'.length))),
        emit: (room, event, payload) => void socket.io.local.to(room).emit(event, payload),
        log,
      })
    : undefined;
  const counters = pollCounters();
  const ownNudger =
    !opts.nudges && opts.redisUrl && opts.pollers !== false
      ? pollNudger({ redisUrl: opts.redisUrl, redisPrefix: opts.redisPrefix ?? 'fleet:', log })
      : undefined;
  const nudges = opts.nudges ?? ownNudger?.source;
  const pollers =
    opts.pollers === false
      ? undefined
      : startPollers({
          registry,
          state: redis ? redisPollState(redis, { processId }) : memoryPollState(),
          ...(nudges ? { nudges } : {}),
          get: deviceApiGetter(opts.deviceApiUrl, opts.serviceToken),
          emit: socket.emit,
          countPoll: (topic) => {
            counters.countPoll(topic);
            opts.countPoll?.(topic);
          },
          log,
          ...(opts.periods ? { periods: opts.periods } : {}),
          ...(opts.tickMs ? { tickMs: opts.tickMs } : {}),
        });
  return {
    io: socket.io,
    counters,
    registry,
    async close() {
      opts.sessions?.detach(socket.io);
      opts.deviceAccess?.detach(socket.io);
      opts.servicePlans?.detach(socket.io);
      await pollers?.stop();
      await pins?.close();
      await ownNudger?.close();
      await registry.close();
      await socket.close();
      for (const r of [redis, pub, sub]) r?.disconnect();
    },
  };
}

/** GETs of the device API with the service credential, as the pollers make them (here and in start:worker). */
export function deviceApiGetter(deviceApiUrl: string, serviceToken: string) {
  const base = deviceApiUrl.replace(/\/$/, '');
  return async (path: string, actAs?: number, opts?: { fresh?: boolean }) => {
    const res = await fetch(`${base}${path}`, {
      headers: {
        Authorization: `Token ${serviceToken}`,
        ...(actAs ? { 'X-Act-As': String(actAs) } : {}),
        ...(opts?.fresh ? { 'Cache-Control': 'no-cache' } : {}),
      },
      signal: AbortSignal.timeout(8000),
    });
    return { status: res.status, body: res.status === 200 ? await res.json() : null };
  };
}
