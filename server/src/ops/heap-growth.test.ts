import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from './heap-growth.ts';

describe('heapGrowingPercent', () => {
  it('is 50 unless set, 0 keeps V8 own growth, and anything else is refused with its name', () => {
    expect(heapGrowingPercent({})).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: ' ' })).toBe(50);
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: '100' })).toBe(100);
    for (const bad of ['-5', '1.5', 'half', '301'])
      expect(() => heapGrowingPercent({ HEAP_GROWING_PERCENT: bad })).toThrow(
        /HEAP_GROWING_PERCENT must be a whole number from 0 to 300/,
      );
  });
});

/**
 * A process that keeps about 45 MB alive and churns objects that live long enough to be promoted (as
 * answers in flight do), reporting the largest heap it reached: with V8's own growth it reached 260 MB
 * here, with limitHeapGrowth(50) about 115 MB.
 */
function churn(percent: number) {
  const script = `
    const { limitHeapGrowth } = await import(${JSON.stringify(path.join(import.meta.dirname, 'heap-growth.ts'))});
    limitHeapGrowth(${percent});
    const live = [];
    for (let i = 0; i < 300_000; i++) live.push({ i, s: 'x' + i, a: [i, i + 1] });
    const ring = new Array(100_000);
    let max = 0;
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 100_000; i++) ring[(round * 100_000 + i) % ring.length] = { round, i, s: 'y' + i, a: [i] };
      max = Math.max(max, process.memoryUsage().heapUsed);
    }
    globalThis.gc();
    console.log(JSON.stringify({ max, live: process.memoryUsage().heapUsed, kept: live.length + ring.length }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { max: number; live: number };
}

describe('limitHeapGrowth', () => {
  it('keeps a churning heap within a few times what it keeps alive, where V8 alone let it grow further', () => {
    const limited = churn(50);
    const unlimited = churn(0);
    expect(limited.max / limited.live).toBeLessThan(3.5);
    expect(unlimited.max / unlimited.live).toBeGreaterThan(limited.max / limited.live + 1);
  });
});
