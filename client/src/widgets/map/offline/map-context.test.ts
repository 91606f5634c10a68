import type { Map as MaplibreMap } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
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
  return { map: map as unknown as MaplibreMap, fire, listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0) };
}

describe('refreshWhenDrawnChanges', () => {
  it('refreshes at an idle only when the view, a source or the style changed since it last ran', () => {
    const { map, fire, listening } = eventedMap();
    let runs = 0;
    const refreshes = refreshWhenDrawnChanges(map, () => void (runs += 1));
    refreshes.now();
    expect(runs).toBe(1);
    // The map goes idle again with nothing new drawn: no second query of what it drew.
    fire('idle');
    fire('idle');
    expect(runs).toBe(1);
    for (const type of ['move', 'resize', 'sourcedata', 'styledata']) {
      fire(type);
      fire('idle');
      fire('idle');
    }
    expect(runs).toBe(5);
    refreshes.changed();
    fire('idle');
    expect(runs).toBe(6);
    refreshes.stop();
    expect(listening()).toBe(0);
    fire('move');
    fire('idle');
    expect(runs).toBe(6);
  });

  it('refreshes at the first idle when it has not run yet', () => {
    const { map, fire } = eventedMap();
    let runs = 0;
    refreshWhenDrawnChanges(map, () => void (runs += 1));
    fire('idle');
    expect(runs).toBe(1);
  });
});
