import type { Map as MaplibreMap } from 'maplibre-gl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshWhenDrawnChanges } from './map-context';

/** The part of a MapLibre map the helper uses: its events. */
function eventedMap() {
  const listeners = new Map<string, Set<() => void>>();
  const map = {
    on(type: string, run: () => void) {
      (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(run);
    },
    off(type: string, run: () => void) {
      listeners.get(type)?.delete(run);
    },
  };
  const fire = (type: string) => [...(listeners.get(type) ?? [])].forEach((run) => run());
  return {
    map: map as unknown as MaplibreMap,
    fire,
    listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

describe('refreshWhenDrawnChanges', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  /** An idle, then the task the refresh was put off to. */
  const idle = (fire: (type: string) => void) => {
    fire('idle');
    vi.runOnlyPendingTimers();
  };

  it('refreshes after an idle only when the view, a source or the style changed since it last ran', () => {
    const { map, fire, listening } = eventedMap();
    let runs = 0;
    const refreshes = refreshWhenDrawnChanges(map, () => void (runs += 1));
    refreshes.now();
    expect(runs).toBe(1);
    // The map goes idle again with nothing new drawn: no second query of what it drew.
    idle(fire);
    idle(fire);
    expect(runs).toBe(1);
    for (const type of ['move', 'resize', 'sourcedata', 'styledata']) {
      fire(type);
      idle(fire);
      idle(fire);
    }
    expect(runs).toBe(5);
    refreshes.changed();
    idle(fire);
    expect(runs).toBe(6);
    refreshes.stop();
    expect(listening()).toBe(0);
    fire('move');
    idle(fire);
    expect(runs).toBe(6);
  });

  it('refreshes at the first idle when it has not run yet', () => {
    const { map, fire } = eventedMap();
    let runs = 0;
    refreshWhenDrawnChanges(map, () => void (runs += 1));
    idle(fire);
    expect(runs).toBe(1);
  });

  it('refreshes in a task of its own after the idle, one per overlay, in the order they were asked', () => {
    const { map, fire } = eventedMap();
    const order: string[] = [];
    refreshWhenDrawnChanges(map, () => void order.push('labels'));
    refreshWhenDrawnChanges(map, () => void order.push('places'));
    fire('idle');
    // Not inside the idle: each refresh waits for a task of its own.
    expect(order).toEqual([]);
    expect(vi.getTimerCount()).toBe(2);
    vi.runOnlyPendingTimers();
    expect(order).toEqual(['labels', 'places']);
  });

  it('asks for one task however many idles come before it runs, and none after a refresh at once or a stop', () => {
    const { map, fire } = eventedMap();
    let runs = 0;
    const refreshes = refreshWhenDrawnChanges(map, () => void (runs += 1));
    fire('idle');
    fire('idle');
    expect(vi.getTimerCount()).toBe(1);
    // Refreshed at once (new site names) before the task: the task finds nothing new to read.
    refreshes.now();
    vi.runOnlyPendingTimers();
    expect(runs).toBe(1);
    fire('move');
    refreshes.soon();
    refreshes.stop();
    vi.runOnlyPendingTimers();
    expect(runs).toBe(1);
  });

  it('refreshes for inputs of its own in a task of its own, even when the map drew nothing new', () => {
    const { map } = eventedMap();
    let runs = 0;
    const refreshes = refreshWhenDrawnChanges(map, () => void (runs += 1));
    refreshes.now();
    // New site names heard in a React effect: not inside it, and not waiting for an idle.
    refreshes.next();
    refreshes.next();
    expect(runs).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(runs).toBe(2);
  });
});
