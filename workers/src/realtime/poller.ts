import {
  overviewSubject,
  POLL_MS,
  rooms,
  type OverviewChangedPayload,
  type PendingFlags,
  type ServerToClientEvents,
  type PolledTopic,
  type SubscriptionTopic,
} from '@fleet/shared';
import { appendedRows, diffFields } from './diff.ts';
import type { PollState, Snapshot } from './poll-state.ts';
import type { WatchRegistry } from './watch-registry.ts';

type Emit = <E extends keyof ServerToClientEvents>(
  room: string,
  event: E,
  payload: Parameters<ServerToClientEvents[E]>[0],
) => void;

export type PollerDeps = {
  registry: WatchRegistry;
  state: PollState;
  /**
   * GET a path of the device API with the service credential; `actAs` scopes the call to a user; `fresh`
   * asks past the server's aggregate cache (Cache-Control: no-cache), for polls nudged by a portal write.
   */
  get(path: string, actAs?: number, opts?: { fresh?: boolean }): Promise<{ status: number; body: unknown }>;
  emit: Emit;
  /** Counts upstream GETs by topic (exposed as upstream_polls_total). */
  countPoll(topic: PolledTopic): void;
  log?: (msg: string, err?: unknown) => void;
  periods?: Partial<Record<PolledTopic, number>>;
  tickMs?: number;
  /** Devices changed through the portal: their subjects are polled now (see startPollers). */
  nudges?: NudgeSource;
};

type DeviceLike = Record<string, unknown> & { serial: string; pending_flags?: PendingFlags };
type SmsRow = { direction: string; message: string; created_when: string };

/** Serials per filtered list call of the cards poll: about 250 kB of answer and a 2 kB URL a call. */
export const CARDS_PER_GET = 200;
const cardKey = (serial: string) => `deviceCards:${serial}`;

/** Where portal writes announce changed devices (nudge.ts): in process, or a Redis channel. */
export type NudgeSource = { subscribe(listener: (serials: string[]) => void): () => void };

/**
 * Polls the device API only for subjects some browser watches, on the spec's schedules (device panel
 * 10 s, cards and pins 20 s, SIM log 15 s), diffs against the last snapshot and emits changes to the
 * subject's room. Nothing is emitted when nothing changed. A subject nobody watches is not polled.
 * Cards: each watched serial is its own subject (owned by one process like the others), and a process
 * reads the cards it owns with list calls filtered to those serials (`/api/v1/device?serials=`, at most
 * CARDS_PER_GET a call), once per period for all of them: the cost follows the watched cards, never the
 * fleet (reading the whole 11 MB list per period per process, past the server's cache, did not scale).
 *
 * Scheduling: `state` says which subjects this process owns (all of them alone; its shards with Redis),
 * and each owned subject is due one period after its last poll, kept in memory: a tick costs no Redis
 * call per subject. The owner keeps the last snapshot in memory too and writes it to Redis only when it
 * changed (or before its copy there expires), so another process taking the subject over diffs against it.
 *
 * Nudges: a portal write names the devices it changed (`nudges`); the owner polls those subjects now
 * (the device, the cards list holding it, and every overview it owns) instead of at the next period, so
 * the poll and the diff still decide what is pushed and everyone hears a change within a second.
 * Device check-ins nudge nothing: they keep the periods.
 */
export function startPollers(deps: PollerDeps) {
  const period = (t: PolledTopic) => deps.periods?.[t] ?? POLL_MS[t];
  const log = deps.log ?? (() => undefined);
  const inFlight = new Set<string>();
  /** Subjects nudged while their poll was running: that poll may have read before the write, poll again. */
  const again = new Set<string>();
  /** Subjects whose next poll follows a portal write: asked past the server's aggregate cache. */
  const urgent = new Set<string>();
  /** Next time each owned subject is due (ms). */
  const due = new Map<string, number>();
  /** Last snapshot of each owned subject, and when it was last written to the shared state. */
  const snapshots = new Map<string, Snapshot & { storedAt: number }>();
  let stopped = false;
  let wake: (() => void) | undefined;
  /**
   * Set when something made subjects due while a tick was running (a nudge, a poll ended with a nudge
   * waiting): the loop's wait is not there to wake yet, so the next tick runs as soon as this one ends
   * instead of a whole tick (250 ms) later (realtime.test.ts: 'a nudge while a tick runs').
   */
  let wakeEarly = false;
  const wakeNow = () => {
    if (wake) wake();
    else wakeEarly = true;
  };

  /** Keys whose shared snapshot was read since this process took them: read once, then kept in `snapshots`. */
  const loaded = new Set<string>();
  /** The previous snapshot: ours, else the shared one (a subject just taken over from another process). */
  async function previous(key: string): Promise<unknown | undefined> {
    const own = snapshots.get(key);
    if (own || loaded.has(key)) return own?.value;
    loaded.add(key);
    return (await deps.state.getSnapshot(key))?.value;
  }

  async function remember(key: string, value: unknown, changed: boolean, topic: PolledTopic) {
    const now = Date.now();
    const ttl = period(topic) * 6;
    const own = snapshots.get(key);
    snapshots.set(key, { at: now, value, storedAt: own?.storedAt ?? 0 });
    // Unchanged answers are written again only before the shared copy would expire.
    if (changed || !own || now - own.storedAt > ttl / 2) {
      await deps.state.setSnapshot(key, { at: now, value }, ttl);
      snapshots.get(key)!.storedAt = now;
    }
  }

  async function pollDevice(serial: string) {
    const res = await deps.get(`/api/v1/device/${encodeURIComponent(serial)}`);
    deps.countPoll('device');
    if (res.status !== 200) return;
    const next = res.body as DeviceLike;
    const key = `device:${serial}`;
    const prev = (await previous(key)) as DeviceLike | undefined;
    const patch = diffFields(prev, next);
    await remember(key, next, !!patch || !prev, 'device');
    if (!patch) return;
    const at = new Date().toISOString();
    deps.emit(rooms.device(serial), 'device:changed', { serial, patch, at });
    if (patch.pending_flags && next.pending_flags)
      deps.emit(rooms.device(serial), 'pendingFlags:changed', { serial, pending_flags: next.pending_flags, at });
  }

  /** One filtered list call per CARDS_PER_GET watched serials; each card diffed against its own snapshot. */
  async function pollCards(serials: string[]) {
    for (let from = 0; from < serials.length && !stopped; from += CARDS_PER_GET) {
      const chunk = serials.slice(from, from + CARDS_PER_GET);
      const res = await deps.get(`/api/v1/device?serials=${chunk.map(encodeURIComponent).join(',')}`);
      deps.countPoll('deviceCards');
      if (res.status !== 200) continue;
      const bySerial = new Map((res.body as DeviceLike[]).map((d) => [d.serial, d]));
      const at = new Date().toISOString();
      // The chunk's snapshots read and written together: their Redis calls go out pipelined, not one round trip each.
      await Promise.all(
        chunk.map(async (serial) => {
          const next = bySerial.get(serial);
          if (!next) return;
          const key = cardKey(serial);
          const prev = (await previous(key)) as DeviceLike | undefined;
          const patch = diffFields(prev, next);
          await remember(key, next, !!patch || !prev, 'deviceCards');
          if (!patch) return;
          deps.emit(rooms.deviceCards(serial), 'device:changed', { serial, patch, at });
          if (patch.pending_flags && next.pending_flags)
            deps.emit(rooms.deviceCards(serial), 'pendingFlags:changed', { serial, pending_flags: next.pending_flags, at });
        }),
      );
    }
  }

  async function pollSimLog(serial: string) {
    const res = await deps.get(`/api/v1/simLog/${encodeURIComponent(serial)}?limit=50`);
    deps.countPoll('simLog');
    if (res.status !== 200) return;
    const next = res.body as SmsRow[];
    const key = `simLog:${serial}`;
    const prev = (await previous(key)) as SmsRow[] | undefined;
    const rows = appendedRows(prev, next, (r) => `${r.created_when}|${r.direction}|${r.message}`);
    await remember(key, next, rows.length > 0 || !prev, 'simLog');
    if (rows.length) deps.emit(rooms.simLog(serial), 'smsLog:appended', { serial, rows, at: new Date().toISOString() });
  }

  /** One subject per user overall (`{userId}`) or per user and county (`{userId}:{location}`). */
  async function pollOverview(subject: string) {
    const { userId, location } = overviewSubject.parse(subject);
    const key = `overview:${subject}`;
    const res = await deps.get(location ? `/api/v1/overview?location=${location}` : '/api/v1/overview', userId, {
      fresh: urgent.delete(key),
    });
    deps.countPoll('overview');
    if (res.status !== 200) return;
    const next = res.body as Record<string, number | null>;
    const prev = (await previous(key)) as Record<string, number | null> | undefined;
    const patch = diffFields(prev, next);
    await remember(key, next, !!patch || !prev, 'overview');
    // The changed counts, and always which overview they belong to: a client may watch overall and a county.
    if (patch)
      deps.emit(rooms.overview(userId, location), 'overview:changed', {
        ...(patch as Record<string, number | null>),
        location,
      } satisfies OverviewChangedPayload);
  }

  /** Runs one poll of `keys` (one subject, or a batch of cards); a key already in flight is left to that poll. */
  const run = (keys: string[], job: (keys: string[]) => Promise<void>) => {
    const free = keys.filter((k) => !inFlight.has(k));
    if (!free.length) return;
    for (const k of free) inFlight.add(k);
    job(free)
      .catch((err) => log(`poll ${free.length > 1 ? `${free[0]} and ${free.length - 1} more` : free[0]} failed`, err))
      .finally(() => {
        let nudged = false;
        for (const k of free) {
          inFlight.delete(k);
          if (again.delete(k)) {
            due.set(k, 0);
            nudged = true;
          }
        }
        if (nudged) wakeNow();
      });
  };

  /** Forgets a subject this process no longer owns (another process polls it now). */
  function disown(key: string) {
    due.delete(key);
    snapshots.delete(key);
    loaded.delete(key);
  }
  const slack = (topic: PolledTopic) => Math.min((deps.tickMs ?? 250) / 2, period(topic) * 0.1);

  /** Polls `key` if this process owns it and it is due (no I/O: ownership and due times are in memory). */
  function pollIfDue(key: string, topic: PolledTopic, job: () => Promise<void>, seen: Set<string>) {
    seen.add(key);
    if (!deps.state.owns(key)) return disown(key);
    // Seen for the first time (just watched, or just taken over from another process): polled at once, so
    // a change made while the subject changed hands (a nudge nobody heard) is found by the diff against
    // the shared snapshot. One extra poll per subject per hand-over; hand-overs follow process starts and stops.
    const next = due.get(key) ?? 0;
    const now = Date.now();
    // Within half a tick either side of the due time, so ticks of 250 ms keep the period on average.
    if (next - slack(topic) > now) {
      due.set(key, next);
      return;
    }
    due.set(key, now + period(topic));
    run([key], job);
  }

  /** When this process's cards are next polled together (all the watched cards it owns, one period apart). */
  let cardsAt = 0;
  /**
   * The cards this process owns: all of them once per period (one round), and between rounds those seen
   * for the first time (just watched or taken over) or nudged, at once. Either way they then wait for the
   * next round, so the cards stay in one batch of calls per period instead of a call per card.
   */
  function pollCardsIfDue(serials: string[], seen: Set<string>) {
    const now = Date.now();
    const round = cardsAt - slack('deviceCards') <= now;
    if (round) cardsAt = now + period('deviceCards');
    const batch: string[] = [];
    for (const serial of serials) {
      const key = cardKey(serial);
      seen.add(key);
      if (!deps.state.owns(key)) {
        disown(key);
        continue;
      }
      const next = due.get(key);
      if (round || next === undefined || next - slack('deviceCards') <= now) batch.push(key);
      due.set(key, cardsAt);
    }
    if (batch.length) run(batch, (keys) => pollCards(keys.map((k) => k.slice('deviceCards:'.length))));
  }

  async function tick() {
    await deps.state.refresh();
    const seen = new Set<string>();
    for (const serial of await deps.registry.watched('device'))
      pollIfDue(`device:${serial}`, 'device', () => pollDevice(serial), seen);
    pollCardsIfDue(await deps.registry.watched('deviceCards'), seen);
    for (const serial of await deps.registry.watched('simLog'))
      pollIfDue(`simLog:${serial}`, 'simLog', () => pollSimLog(serial), seen);
    for (const subject of await deps.registry.watched('overview'))
      pollIfDue(`overview:${subject}`, 'overview', () => pollOverview(subject), seen);
    // Nobody watches these any more: forget them (a new watcher starts from the shared snapshot).
    for (const key of due.keys()) if (!seen.has(key)) due.delete(key);
    for (const key of new Set([...snapshots.keys(), ...loaded])) if (!seen.has(key)) disown(key);
  }

  /** Makes the subjects of changed devices due now; the next tick (started at once) polls those this process owns. */
  function nudged(serials: string[]) {
    const keys = [
      ...serials.flatMap((s) => [`device:${s}`, cardKey(s), `simLog:${s}`]),
      ...[...due.keys()].filter((k) => k.startsWith('overview:')),
    ];
    for (const key of keys) {
      if (!due.has(key)) continue;
      if (key.startsWith('overview:')) urgent.add(key);
      if (inFlight.has(key)) again.add(key);
      else due.set(key, 0);
    }
    wakeNow();
  }
  const unsubscribe = deps.nudges?.subscribe(nudged);

  const loop = async () => {
    while (!stopped) {
      wakeEarly = false;
      await tick().catch((err) => log('poll tick failed', err));
      if (wakeEarly) continue;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, deps.tickMs ?? 250);
        wake = () => {
          clearTimeout(timer);
          r();
        };
      });
      wake = undefined;
    }
  };
  void loop();
  return {
    /** For tests and the process's metrics: how many subjects this process owns now. */
    owned: () => due.size,
    async stop() {
      stopped = true;
      unsubscribe?.();
      wake?.();
      while (inFlight.size) await new Promise((r) => setTimeout(r, 20));
      await deps.state.release();
    },
  };
}

/** upstream_polls_total by topic, in Prometheus text format. */
export function pollCounters() {
  const counts: Record<string, number> = {};
  return {
    countPoll(topic: SubscriptionTopic) {
      counts[topic] = (counts[topic] ?? 0) + 1;
    },
    total(topic?: SubscriptionTopic) {
      return topic ? (counts[topic] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0);
    },
    prometheus() {
      const lines = [
        '# HELP upstream_polls_total Upstream GETs the pollers made to the device API, by topic.',
        '# TYPE upstream_polls_total counter',
      ];
      for (const topic of ['device', 'deviceCards', 'simLog', 'overview'])
        lines.push(`upstream_polls_total{topic="${topic}"} ${counts[topic] ?? 0}`);
      return `${lines.join('\n')}\n`;
    },
  };
}
