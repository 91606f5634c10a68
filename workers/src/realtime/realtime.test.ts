import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overviewSubject, POLL_MS } from '@fleet/shared';
import { appendedRows, deepEqual, diffFields } from './diff.ts';
import { memoryPollState, shardOf } from './poll-state.ts';
import { CARDS_PER_GET, startPollers } from './poller.ts';
import { LocalWatchCounts, memoryWatchRegistry } from './watch-registry.ts';

describe('diffFields', () => {
  const base = { serial: 'A', is_online: true, warning_lists: ['BATTERY'], location: { lat: 1, lng: 2 }, battery_percent: 40 };
  it('is null for the first snapshot and when nothing changed', () => {
    expect(diffFields(undefined, base)).toBeNull();
    expect(diffFields(base, { ...base, warning_lists: ['BATTERY'], location: { lng: 2, lat: 1 } })).toBeNull();
  });
  it('holds only the fields that changed, with their new values', () => {
    expect(diffFields(base, { ...base, is_online: false, warning_lists: [] })).toEqual({ is_online: false, warning_lists: [] });
    expect(diffFields(base, { ...base, location: { lat: 1, lng: 3 } })).toEqual({ location: { lat: 1, lng: 3 } });
  });
  it('reports a removed field as null', () => {
    const { battery_percent: _, ...rest } = base;
    expect(diffFields(base, rest)).toEqual({ battery_percent: null });
  });
});

describe('appendedRows', () => {
  const key = (r: { created_when: string; message: string }) => `${r.created_when}|${r.message}`;
  it('finds new rows of a newest-first log, nothing on the first look', () => {
    const a = [
      { created_when: '2', message: 'b' },
      { created_when: '1', message: 'a' },
    ];
    expect(appendedRows(undefined, a, key)).toEqual([]);
    expect(appendedRows(a, [{ created_when: '3', message: 'c' }, ...a], key)).toEqual([{ created_when: '3', message: 'c' }]);
    expect(appendedRows(a, a, key)).toEqual([]);
  });
});

describe('deepEqual', () => {
  it('compares nested values', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});

describe('watch registry', () => {
  it('counts watchers; a subject is watched until its last watcher leaves', async () => {
    const r = memoryWatchRegistry();
    await r.add('device', 'A');
    await r.add('device', 'A');
    await r.add('simLog', 'A');
    expect(await r.watched('device')).toEqual(['A']);
    await r.remove('device', 'A');
    expect(await r.watched('device')).toEqual(['A']);
    await r.remove('device', 'A');
    expect(await r.watched('device')).toEqual([]);
    expect(await r.watched('simLog')).toEqual(['A']);
  });
  it('tells first and last watchers apart', () => {
    const c = new LocalWatchCounts();
    expect(c.add('t', 's')).toBe(true);
    expect(c.add('t', 's')).toBe(false);
    expect(c.remove('t', 's')).toBe(false);
    expect(c.remove('t', 's')).toBe(true);
  });
});

describe('overview poller', () => {
  const PERIOD = POLL_MS.overview;
  const counts = (over: Record<string, number | null>) => ({ total_devices: 10, pause_devices: 1, warning_devices: 2, ...over });

  /** Pollers on fake timers over a fake device API whose answers the test edits between periods. */
  async function setup(watchers: string[]) {
    const registry = memoryWatchRegistry();
    for (const subject of watchers) await registry.add('overview', subject);
    const answers: Record<string, Record<string, number | null>> = {
      '/api/v1/overview': counts({ location: null }),
      '/api/v1/overview?location=12': counts({ location: 12, total_devices: 4 }),
    };
    const gets: string[] = [];
    const emits: { room: string; event: string; payload: unknown }[] = [];
    const pollers = startPollers({
      registry,
      state: memoryPollState(),
      async get(path, actAs) {
        gets.push(`${actAs} ${path}`);
        const body = answers[path];
        return body ? { status: 200, body: structuredClone(body) } : { status: 404, body: null };
      },
      emit: (room, event, payload) => void emits.push({ room, event, payload }),
      countPoll: () => undefined,
    });
    return { registry, answers, gets, emits, pollers };
  }

  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('polls a county once per period as its user, however many watch it, and pushes only changed counts with location to the county room', async () => {
    const county = overviewSubject.format(7, 12);
    const { answers, gets, emits, pollers } = await setup([county, county, county, county, county, overviewSubject.format(7)]);
    await vi.advanceTimersByTimeAsync(100);
    expect([...gets].sort()).toEqual(['7 /api/v1/overview', '7 /api/v1/overview?location=12']);
    expect(emits).toEqual([]); // the first poll only takes the snapshot

    answers['/api/v1/overview?location=12'] = { ...answers['/api/v1/overview?location=12']!, pause_devices: 2 };
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(gets.filter((g) => g.endsWith('?location=12'))).toHaveLength(2);
    expect(emits).toEqual([{ room: 'overview:7:12', event: 'overview:changed', payload: { pause_devices: 2, location: 12 } }]);

    answers['/api/v1/overview'] = { ...answers['/api/v1/overview']!, warning_devices: 5, total_devices: 11 };
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(gets.filter((g) => g.endsWith('?location=12'))).toHaveLength(3);
    expect(emits.slice(1)).toEqual([
      { room: 'overview:7', event: 'overview:changed', payload: { warning_devices: 5, total_devices: 11, location: null } },
    ]);
    await pollers.stop();
  });

  it('stops polling a county when its last watcher leaves', async () => {
    const { registry, answers, gets, emits, pollers } = await setup(['7:12', '7:12']);
    await vi.advanceTimersByTimeAsync(100);
    await registry.remove('overview', '7:12');
    answers['/api/v1/overview?location=12'] = { ...answers['/api/v1/overview?location=12']!, pause_devices: 3 };
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(gets).toHaveLength(2);
    await registry.remove('overview', '7:12');
    await vi.advanceTimersByTimeAsync(PERIOD * 3);
    expect(gets).toHaveLength(2);
    expect(emits).toEqual([{ room: 'overview:7:12', event: 'overview:changed', payload: { pause_devices: 3, location: 12 } }]);
    await pollers.stop();
  });
});

describe('cards poller', () => {
  const PERIOD = POLL_MS.deviceCards;
  const serialsOf = (path: string) =>
    decodeURIComponent(new URL(path, 'http://x').searchParams.get('serials') ?? '')
      .split(',')
      .filter(Boolean);

  /** Cards watched over a fake device API answering the filtered list call; the test edits devices between periods. */
  async function setup(watched: string[]) {
    const registry = memoryWatchRegistry();
    for (const serial of watched) await registry.add('deviceCards', serial);
    const devices = new Map<string, Record<string, unknown>>();
    const gets: string[] = [];
    const emits: { room: string; event: string; payload: unknown }[] = [];
    const listeners = new Set<(serials: string[]) => void>();
    const pollers = startPollers({
      registry,
      state: memoryPollState(),
      async get(path) {
        gets.push(path);
        const rows = serialsOf(path).map((s) => devices.get(s) ?? { serial: s, is_pause: false });
        return { status: 200, body: structuredClone(rows) };
      },
      emit: (room, event, payload) => void emits.push({ room, event, payload }),
      countPoll: () => undefined,
      nudges: { subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)) },
    });
    return { registry, devices, gets, emits, pollers, nudge: (...serials: string[]) => listeners.forEach((l) => l(serials)) };
  }

  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('reads only the watched cards, CARDS_PER_GET a call, once per period, and pushes a changed card to its room', async () => {
    const watched = Array.from({ length: 450 }, (_, i) => `SP${300000 + i}`);
    const { devices, gets, emits, pollers } = await setup(watched);
    await vi.advanceTimersByTimeAsync(100);
    expect(gets.map((g) => serialsOf(g).length)).toEqual([CARDS_PER_GET, CARDS_PER_GET, 50]);
    expect(new Set(gets.flatMap(serialsOf))).toEqual(new Set(watched));
    expect(gets.every((g) => g.startsWith('/api/v1/device?serials='))).toBe(true); // never the whole list
    expect(emits).toEqual([]); // the first poll only takes the snapshots

    devices.set('SP300123', { serial: 'SP300123', is_pause: true });
    await vi.advanceTimersByTimeAsync(PERIOD - 500);
    expect(gets).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(gets).toHaveLength(6);
    expect(emits).toEqual([
      {
        room: 'devices:SP300123',
        event: 'device:changed',
        payload: expect.objectContaining({ serial: 'SP300123', patch: { is_pause: true } }),
      },
    ]);
    await pollers.stop();
  });

  it('polls a newly watched or nudged card at once, alone, then with the others at the next round; an unwatched one never', async () => {
    const { registry, devices, gets, emits, pollers, nudge } = await setup(['SP1', 'SP2']);
    await vi.advanceTimersByTimeAsync(100);
    expect(gets.map(serialsOf)).toEqual([['SP1', 'SP2']]);
    await vi.advanceTimersByTimeAsync(5000);
    await registry.add('deviceCards', 'SP3');
    await vi.advanceTimersByTimeAsync(300);
    expect(gets.map(serialsOf)).toEqual([['SP1', 'SP2'], ['SP3']]);

    devices.set('SP2', { serial: 'SP2', is_pause: true });
    nudge('SP2', 'SP9');
    await vi.advanceTimersByTimeAsync(5);
    expect(gets.map(serialsOf).slice(2)).toEqual([['SP2']]);
    expect(emits.map((e) => e.room)).toEqual(['devices:SP2']);

    // The round keeps its period: SP3 and the nudged SP2 join it rather than starting periods of their own.
    await vi.advanceTimersByTimeAsync(PERIOD - 5405 - 300); // the first round was at 0
    expect(gets).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(500);
    expect(gets.map(serialsOf).slice(3)).toEqual([['SP1', 'SP2', 'SP3']]);

    await registry.remove('deviceCards', 'SP1');
    await vi.advanceTimersByTimeAsync(PERIOD);
    expect(gets.map(serialsOf).slice(4)).toEqual([['SP2', 'SP3']]);
    await pollers.stop();
  });
});

describe('nudged polls', () => {
  /** A poller over a fake device API; `release` lets the test hold a GET in flight. */
  async function setup() {
    const registry = memoryWatchRegistry();
    await registry.add('device', 'A');
    await registry.add('overview', '7');
    const listeners = new Set<(serials: string[]) => void>();
    const gets: string[] = [];
    let hold: Promise<void> | undefined;
    const pollers = startPollers({
      registry,
      state: memoryPollState(),
      async get(path) {
        gets.push(path);
        if (hold) await hold;
        return { status: 200, body: path.includes('overview') ? { total_devices: 1 } : { serial: 'A', is_pause: false } };
      },
      emit: () => undefined,
      countPoll: () => undefined,
      nudges: { subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)) },
    });
    const nudge = (...serials: string[]) => listeners.forEach((l) => l(serials));
    return { gets, pollers, nudge, holdWith: (p: Promise<void> | undefined) => void (hold = p) };
  }

  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('polls a nudged device and the overviews at once instead of at the next period; an unwatched serial costs nothing', async () => {
    const { gets, pollers, nudge } = await setup();
    await vi.advanceTimersByTimeAsync(50);
    expect([...gets].sort()).toEqual(['/api/v1/device/A', '/api/v1/overview']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(gets).toHaveLength(2); // the periods are 10 and 20 s
    nudge('A');
    await vi.advanceTimersByTimeAsync(5);
    expect(gets.slice(2).sort()).toEqual(['/api/v1/device/A', '/api/v1/overview']);
    nudge('B');
    await vi.advanceTimersByTimeAsync(1000);
    expect(gets.filter((g) => g.includes('/device/'))).toEqual(['/api/v1/device/A', '/api/v1/device/A']);
    // The period restarts from the nudged poll.
    await vi.advanceTimersByTimeAsync(POLL_MS.device - 1500);
    expect(gets.filter((g) => g.includes('/device/'))).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(gets.filter((g) => g.includes('/device/'))).toHaveLength(3);
    await pollers.stop();
  });

  it('a nudge while a tick runs (past its subject) polls it as soon as that tick ends, not a tick later', async () => {
    const registry = memoryWatchRegistry();
    await registry.add('device', 'A');
    await registry.add('overview', '7');
    // The tick's last registry read can be held: the device has been looked at by then.
    let holdOverviews: Promise<void> | undefined;
    const watched = registry.watched.bind(registry);
    registry.watched = async (topic) => {
      if (topic === 'overview' && holdOverviews) await holdOverviews;
      return watched(topic);
    };
    const listeners = new Set<(serials: string[]) => void>();
    const gets: string[] = [];
    const pollers = startPollers({
      registry,
      state: memoryPollState(),
      get: async (path) => (
        gets.push(path),
        { status: 200, body: path.includes('overview') ? { total_devices: 1 } : { serial: 'A', is_pause: false } }
      ),
      emit: () => undefined,
      countPoll: () => undefined,
      nudges: { subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)) },
      tickMs: 250,
    });
    await vi.advanceTimersByTimeAsync(50);
    const devicePolls = () => gets.filter((g) => g.includes('/device/')).length;
    expect(devicePolls()).toBe(1);
    let release!: () => void;
    holdOverviews = new Promise<void>((r) => (release = r));
    await vi.advanceTimersByTimeAsync(250); // the next tick starts and waits on the registry, past device A
    listeners.forEach((l) => l(['A']));
    holdOverviews = undefined;
    release();
    await vi.advanceTimersByTimeAsync(5);
    expect(devicePolls()).toBe(2);
    await pollers.stop();
  });

  it('a nudge during a poll in flight polls again when it ends (that poll may have read before the write)', async () => {
    const { gets, pollers, nudge, holdWith } = await setup();
    await vi.advanceTimersByTimeAsync(50);
    let release!: () => void;
    holdWith(new Promise<void>((r) => (release = r)));
    nudge('A');
    await vi.advanceTimersByTimeAsync(5);
    const during = gets.filter((g) => g.includes('/device/')).length;
    expect(during).toBe(2);
    nudge('A');
    await vi.advanceTimersByTimeAsync(100);
    expect(gets.filter((g) => g.includes('/device/'))).toHaveLength(2); // never two at once
    holdWith(undefined);
    release();
    await vi.advanceTimersByTimeAsync(5);
    expect(gets.filter((g) => g.includes('/device/'))).toHaveLength(3);
    await pollers.stop();
  });
});

describe('shards', () => {
  it('put a subject in the same shard everywhere and spread subjects evenly', () => {
    expect(shardOf('device:SP240001', 64)).toBe(shardOf('device:SP240001', 64));
    const counts = new Array(16).fill(0);
    for (let i = 0; i < 16_000; i++) counts[shardOf(`device:SP${240000 + i}`, 16)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1200);
  });
});
