import { describe, expect, it } from 'vitest';
import { appendedRows, deepEqual, diffFields } from './diff.ts';
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
    const a = [{ created_when: '2', message: 'b' }, { created_when: '1', message: 'a' }];
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
