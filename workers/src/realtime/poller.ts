import { overviewSubject, POLL_MS, rooms, type OverviewChangedPayload, type PendingFlags, type ServerToClientEvents, type SubscriptionTopic } from '@fleet/shared';
import { appendedRows, diffFields } from './diff.ts';
import type { PollState } from './poll-state.ts';
import type { WatchRegistry } from './watch-registry.ts';

type Emit = <E extends keyof ServerToClientEvents>(room: string, event: E, payload: Parameters<ServerToClientEvents[E]>[0]) => void;

export type PollerDeps = {
  registry: WatchRegistry;
  state: PollState;
  /** GET a path of the device API with the service credential; `actAs` scopes the call to a user. */
  get(path: string, actAs?: number): Promise<{ status: number; body: unknown }>;
  emit: Emit;
  /** Counts upstream GETs by topic (exposed as upstream_polls_total). */
  countPoll(topic: SubscriptionTopic): void;
  log?: (msg: string, err?: unknown) => void;
  periods?: Partial<Record<SubscriptionTopic, number>>;
  tickMs?: number;
};

type DeviceLike = Record<string, unknown> & { serial: string; pending_flags?: PendingFlags };
type SmsRow = { direction: string; message: string; created_when: string };

/**
 * Polls the device API only for subjects some browser watches, on the spec's schedules (device panel
 * 10 s, cards and pins 20 s, SIM log 15 s), diffs against the last snapshot and emits changes to the
 * subject's room. Nothing is emitted when nothing changed. A subject nobody watches is not polled.
 * Cards are polled as one list call per period for all watched cards, not one call per card.
 */
export function startPollers(deps: PollerDeps) {
  const period = (t: SubscriptionTopic) => deps.periods?.[t] ?? POLL_MS[t];
  const log = deps.log ?? (() => undefined);
  const inFlight = new Set<string>();
  let stopped = false;

  async function pollDevice(serial: string) {
    const res = await deps.get(`/api/v1/device/${encodeURIComponent(serial)}`);
    deps.countPoll('device');
    if (res.status !== 200) return;
    const next = res.body as DeviceLike;
    const key = `device:${serial}`;
    const prev = (await deps.state.getSnapshot(key)) as DeviceLike | undefined;
    await deps.state.setSnapshot(key, next, period('device') * 6);
    const patch = diffFields(prev, next);
    if (!patch) return;
    const at = new Date().toISOString();
    deps.emit(rooms.device(serial), 'device:changed', { serial, patch, at });
    if (patch.pending_flags && next.pending_flags) deps.emit(rooms.device(serial), 'pendingFlags:changed', { serial, pending_flags: next.pending_flags, at });
  }

  async function pollCards(serials: string[]) {
    const res = await deps.get('/api/v1/device');
    deps.countPoll('deviceCards');
    if (res.status !== 200) return;
    const bySerial = new Map((res.body as DeviceLike[]).map((d) => [d.serial, d]));
    const at = new Date().toISOString();
    for (const serial of serials) {
      const next = bySerial.get(serial);
      if (!next) continue;
      const key = `deviceCards:${serial}`;
      const prev = (await deps.state.getSnapshot(key)) as DeviceLike | undefined;
      await deps.state.setSnapshot(key, next, period('deviceCards') * 6);
      const patch = diffFields(prev, next);
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
    const prev = (await deps.state.getSnapshot(key)) as SmsRow[] | undefined;
    await deps.state.setSnapshot(key, next, period('simLog') * 6);
    const rows = appendedRows(prev, next, (r) => `${r.created_when}|${r.direction}|${r.message}`);
    if (rows.length) deps.emit(rooms.simLog(serial), 'smsLog:appended', { serial, rows, at: new Date().toISOString() });
  }

  /** One subject per user overall (`{userId}`) or per user and county (`{userId}:{location}`). */
  async function pollOverview(subject: string) {
    const { userId, location } = overviewSubject.parse(subject);
    const res = await deps.get(location ? `/api/v1/overview?location=${location}` : '/api/v1/overview', userId);
    deps.countPoll('overview');
    if (res.status !== 200) return;
    const next = res.body as Record<string, number | null>;
    const key = `overview:${subject}`;
    const prev = (await deps.state.getSnapshot(key)) as Record<string, number | null> | undefined;
    await deps.state.setSnapshot(key, next, period('overview') * 6);
    const patch = diffFields(prev, next);
    // The changed counts, and always which overview they belong to: a client may watch overall and a county.
    if (patch) deps.emit(rooms.overview(userId, location), 'overview:changed', { ...(patch as Record<string, number | null>), location } satisfies OverviewChangedPayload);
  }

  const run = (key: string, job: () => Promise<void>) => {
    if (inFlight.has(key)) return;
    inFlight.add(key);
    job()
      .catch((err) => log(`poll ${key} failed`, err))
      .finally(() => inFlight.delete(key));
  };

  async function tick() {
    for (const serial of await deps.registry.watched('device')) {
      if (await deps.state.claim(`device:${serial}`, period('device'))) run(`device:${serial}`, () => pollDevice(serial));
    }
    const cards = await deps.registry.watched('deviceCards');
    if (cards.length && (await deps.state.claim('deviceCards:*', period('deviceCards')))) run('deviceCards:*', () => pollCards(cards));
    for (const serial of await deps.registry.watched('simLog')) {
      if (await deps.state.claim(`simLog:${serial}`, period('simLog'))) run(`simLog:${serial}`, () => pollSimLog(serial));
    }
    for (const subject of await deps.registry.watched('overview')) {
      if (await deps.state.claim(`overview:${subject}`, period('overview'))) run(`overview:${subject}`, () => pollOverview(subject));
    }
  }

  const loop = async () => {
    while (!stopped) {
      await tick().catch((err) => log('poll tick failed', err));
      await new Promise((r) => setTimeout(r, deps.tickMs ?? 250));
    }
  };
  void loop();
  return {
    async stop() {
      stopped = true;
      while (inFlight.size) await new Promise((r) => setTimeout(r, 20));
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
