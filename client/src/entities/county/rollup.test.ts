import type { RollupRow } from '@fleet/shared';
import { allSettled, createStore, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { overviewChangedReceived } from '../../shared/realtime';
import { createRollup, fetchRollupFx, type RollupQuery } from './rollup';

const $query = createStore<RollupQuery | null>(null);
const rollup = createRollup($query);
const row = (key: string): RollupRow => ({
  key,
  name: key,
  address: null,
  serial: null,
  label: null,
  total: 1,
  online: 1,
  offline: 0,
  warning: 0,
});

/** A server whose answers the test releases one by one, naming the query each answers. */
function slowServer() {
  const asked: { query: RollupQuery; answer: () => void }[] = [];
  const scope = fork({
    handlers: [
      [
        fetchRollupFx,
        (query: RollupQuery) =>
          new Promise((resolve) =>
            asked.push({ query, answer: () => resolve({ rows: [row(`${query.by}:${query.brand ?? ''}`)] }) }),
          ),
      ],
    ],
  });
  return { scope, asked };
}
const keys = (scope: ReturnType<typeof fork>) => scope.getState(rollup.$rows).map((r) => r.key);

describe('createRollup', () => {
  it('shows only the answer for the query wanted, and nothing for a null query', async () => {
    const { scope, asked } = slowServer();
    const first = allSettled($query, { scope, params: { by: 'county', brand: 1 } });
    const second = allSettled($query, { scope, params: { by: 'county', brand: 2 } });
    expect(asked.map((a) => a.query.brand)).toEqual([1, 2]);
    // Brand 1's answer comes last: it is dropped, brand 2's shows.
    asked[1]!.answer();
    asked[0]!.answer();
    await Promise.all([first, second]);
    expect(keys(scope)).toEqual(['county:2']);
    expect(scope.getState(rollup.$status)).toBe('ready');
    await allSettled($query, { scope, params: null });
    expect(keys(scope)).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it('reads again after a push of the counts, once after the read running, never for other figures', async () => {
    const { scope, asked } = slowServer();
    const opened = allSettled($query, { scope, params: { by: 'partner' } });
    // Two pushes during the read: one more read after it.
    void allSettled(overviewChangedReceived, { scope, params: { location: null, online_devices: 4 } as never });
    void allSettled(overviewChangedReceived, { scope, params: { location: 3, warning_devices: 1 } as never });
    void allSettled(overviewChangedReceived, { scope, params: { location: null, totalSanitizerUsed: 2 } as never });
    expect(asked).toHaveLength(1);
    asked[0]!.answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toHaveLength(2);
    asked[1]!.answer();
    await opened;
    expect(keys(scope)).toEqual(['partner:']);
    expect(asked).toHaveLength(2);
  });
});
