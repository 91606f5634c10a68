import { overviewSubject, POLL_MS, rooms, type OverviewChangedPayload, type PendingFlags, type ServerToClientEvents, type SubscriptionTopic } from '@fleet/shared';
import { appendedRows, diffFields } from './diff.ts';
import type { PollState, Snapshot } from './poll-state.ts';
import type { WatchRegistry } from './watch-registry.ts';

type Emit = <E extends keyof ServerToClientEvents>(room: string, event: E, payload: Parameters<ServerToClientEvents[E]>[0]) => void;

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
  countPoll(topic: SubscriptionTopic): void;
  log?: (msg: string, err?: unknown) => void;
  periods?: Partial<Record<SubscriptionTopic, number>>;
  tickMs?: number;
  /** Devices changed through the portal: their subjects are polled now (see startPollers). */
  nudges?: NudgeSource;
};

type DeviceLike = Record<string, unknown> & { serial: string; pending_flags?: PendingFlags };
type SmsRow = { direction: string; message: string; created_when: string };

/** Where portal writes announce changed devices (poll-nudge.ts): in process, or a Redis channel. */
export type NudgeSource = { subscribe(listener: (serials: string[]) => void): () => void };

/**
 * Polls the device API only for subjects some browser watches, on the spec's schedules (device panel
 * 10 s, cards and pins 20 s, SIM log 15 s), diffs against the last snapshot and emits changes to the
 * subject's room. Nothing is emitted when nothing changed. A subject nobody watches is not polled.
 * Cards are polled as one list call per period for all watched cards, not one call per card.
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
  const period = (t: SubscriptionTopic) => deps.periods?.[t] ?? POLL_MS[t];
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

  /** Keys whose shared snapshot was read since this process took them: read once, then kept in `snapshots`. */
  const loaded = new Set<string>();
  /** The previous snapshot: ours, else the shared one (a subject just taken over from another process). */
  async function previous(key: string): Promise<unknown | undefined> {
    const own = snapshots.get(key);
    if (own || loaded.has(key)) return own?.value;
    loaded.add(key);
    return (await deps.state.getSnapshot(key))?.value;
  }

  async function remember(key: string, value: unknown, changed: boolean, topic: SubscriptionTopic) {
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
    if (patch.pending_flags && next.pending_flags) deps.emit(rooms.device(serial), 'pendingFlags:changed', { serial, pending_flags: next.pending_flags, at });
  }

  async function pollCards(serials: string[]) {
    // Always past the server's cache: one list read per period per process, and the diff sees the database as it is.
    const res = await deps.get('/api/v1/device', undefined, { fresh: true });
    deps.countPoll('deviceCards');
    if (res.status !== 200) return;
    const bySerial = new Map((res.body as DeviceLike[]).map((d) => [d.serial, d]));
    const at = new Date().toISOString();
    for (const serial of serials) {
      const next = bySerial.get(serial);
      if (!next) continue;
      const key = `deviceCards:${serial}`;
      const prev = (await previous(key)) as DeviceLike | undefined;
      const patch = diffFields(prev, next);
      await remember(key, next, !!patch || !prev, 'deviceCards');
      if (!patch) continue;
      deps.emit(rooms.deviceCards(serial), 'device:changed', { serial, patch, at });
      if (patch.pending_flags && next.pending_flags) deps.emit(rooms.deviceCards(serial), 'pendingFlags:changed', { serial, pending_flags: next.pending_flags, at });
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
    const res = await deps.get(location ? `/api/v1/overview?location=${location}` : '/api/v1/overview', userId, { fresh: urgent.delete(key) });
    deps.countPoll('overview');
    if (res.status !== 200) return;
    const next = res.body as Record<string, number | null>;
    const prev = (await previous(key)) as Record<string, number | null> | undefined;
    const patch = diffFields(prev, next);
    await remember(key, next, !!patch || !prev, 'overview');
    // The changed counts, and always which overview they belong to: a client may watch overall and a county.
    if (patch) deps.emit(rooms.overview(userId, location), 'overview:changed', { ...(patch as Record<string, number | null>), location } satisfies OverviewChangedPayload);
  }

  const run = (key: string, job: () => Promise<void>) => {
    if (inFlight.has(key)) return;
    inFlight.add(key);
    job()
      .catch((err) => log(`poll ${key} failed`, err))
      .finally(() => {
        inFlight.delete(key);
        if (again.delete(key)) {
          due.set(key, 0);
          wake?.();
        }
      });
  };

  /** Polls `key` if this process owns it and it is due (no I/O: ownership and due times are in memory). */
  function pollIfDue(key: string, topic: SubscriptionTopic, job: () => Promise<void>, seen: Set<string>) {
    seen.add(key);
    if (!deps.state.owns(key)) {
      due.delete(key);
      snapshots.delete(key);
      loaded.delete(key);
      return;
    }
    // Seen for the first time (just watched, or just taken over from another process): polled at once, so
    // a change made while the subject changed hands (a nudge nobody heard) is found by the diff against
    // the shared snapshot. One extra poll per subject per hand-over; hand-overs follow process starts and stops.
    const next = due.get(key) ?? 0;
    const now = Date.now();
    // Within half a tick either side of the due time, so ticks of 250 ms keep the period on average.
    if (next - Math.min((deps.tickMs ?? 250) / 2, period(topic) * 0.1) > now) {
      due.set(key, next);
      return;
    }
    due.set(key, now + period(topic));
    run(key, job);
  }

  async function tick() {
    await deps.state.refresh();
    const seen = new Set<string>();
    for (const serial of await deps.registry.watched('device')) pollIfDue(`device:${serial}`, 'device', () => pollDevice(serial), seen);
    const cards = await deps.registry.watched('deviceCards');
    if (cards.length) pollIfDue('deviceCards:*', 'deviceCards', () => pollCards(cards), seen);
    for (const serial of await deps.registry.watched('simLog')) pollIfDue(`simLog:${serial}`, 'simLog', () => pollSimLog(serial), seen);
    for (const subject of await deps.registry.watched('overview')) pollIfDue(`overview:${subject}`, 'overview', () => pollOverview(subject), seen);
    // Nobody watches these any more: forget them (a new watcher starts from the shared snapshot).
    for (const key of due.keys()) if (!seen.has(key)) due.delete(key);
    const cardsKept = cards.length > 0 && deps.state.owns('deviceCards:*');
    for (const key of new Set([...snapshots.keys(), ...loaded])) {
      if (seen.has(key) || (cardsKept && key.startsWith('deviceCards:'))) continue;
      snapshots.delete(key);
      loaded.delete(key);
    }
  }

  /** Makes the subjects of changed devices due now; the next tick (started at once) polls those this process owns. */
  function nudged(serials: string[]) {
    const keys = [...serials.flatMap((s) => [`device:${s}`, `simLog:${s}`]), 'deviceCards:*', ...[...due.keys()].filter((k) => k.startsWith('overview:'))];
    for (const key of keys) {
      if (!due.has(key)) continue;
      if (key.startsWith('overview:')) urgent.add(key);
      if (inFlight.has(key)) again.add(key);
      else due.set(key, 0);
    }
    wake?.();
  }
  const unsubscribe = deps.nudges?.subscribe(nudged);

  const loop = async () => {
    while (!stopped) {
      await tick().catch((err) => log('poll tick failed', err));
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
      const lines = ['# HELP upstream_polls_total Upstream GETs the pollers made to the device API, by topic.', '# TYPE upstream_polls_total counter'];
      for (const topic of ['device', 'deviceCards', 'simLog', 'overview']) lines.push(`upstream_polls_total{topic="${topic}"} ${counts[topic] ?? 0}`);
      return `${lines.join('\n')}\n`;
    },
  };
}
