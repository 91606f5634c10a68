import { describe, expect, it } from 'vitest';
import { createProgress, estimateLeftMs, formatDuration, progressBar, progressLine, shareDone } from './progress.ts';

const stages = [
  { name: 'fleet', weight: 10 },
  { name: 'pump events', weight: 60 },
  { name: 'counters', weight: 30 },
];

/** A clock the test moves by hand. */
function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('progress of long work', () => {
  it('shares: by the weights of the stages done, inside a stage by the pace so far (never past 95 % of it)', () => {
    expect(shareDone(stages, 0)).toBe(0);
    expect(shareDone(stages, 1)).toBeCloseTo(0.1);
    expect(shareDone(stages, 2)).toBeCloseTo(0.7);
    // 100 ms per unit of weight: 3 s into the 60-unit stage is half of it.
    expect(shareDone(stages, 1, 3_000, 100)).toBeCloseTo(0.4);
    expect(shareDone(stages, 1, 60_000, 100)).toBeCloseTo(0.1 + 0.6 * 0.95);
  });

  it('estimates the time left from the time so far, or from the expectation before there is any', () => {
    expect(estimateLeftMs(0, 0)).toBeUndefined();
    expect(estimateLeftMs(0, 1_000, 60_000)).toBe(59_000);
    expect(estimateLeftMs(0.25, 10_000)).toBe(30_000);
    expect(estimateLeftMs(1, 10_000)).toBe(0);
    expect(formatDuration(42_400)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
  });

  it('prints one plain line per stage, with its share and the time left, and the total at the end', async () => {
    const c = clock();
    const lines: string[] = [];
    const p = createProgress({ title: 'demo seed', stages, log: (l) => lines.push(l), expectMs: 50_000, now: c.now });
    await p.stage('fleet', async () => c.advance(5_000));
    await p.stage('pump events', async () => c.advance(30_000));
    await p.stage('counters', async () => c.advance(15_000));
    p.done();
    expect(lines).toEqual([
      'demo seed [1/3] 0% fleet (about 50 s left)',
      'demo seed [2/3] 10% pump events (about 45 s left)',
      'demo seed [3/3] 70% counters (about 15 s left)',
      'demo seed: done in 50 s',
    ]);
    expect(progressLine('x', 0, 1, 'y', 0, undefined)).toBe('x [1/1] 0% y (estimating time left)');
  });

  it('draws a bar on a terminal, redrawn in place while a stage runs, ending with a line break', async () => {
    const c = clock();
    const written: string[] = [];
    const lines: string[] = [];
    const p = createProgress({
      title: 'scale seed',
      stages,
      log: (l) => lines.push(l),
      tty: { write: (t) => written.push(t), columns: 100 },
      now: c.now,
      redrawMs: 5,
    });
    await p.stage('fleet', async () => c.advance(1_000));
    await p.stage('pump events', async () => {
      c.advance(3_000);
      await new Promise((r) => setTimeout(r, 30));
    });
    p.done();
    expect(written.every((w) => w.startsWith('\r'))).toBe(true);
    // Redrawn while 'pump events' ran: 3 s at 100 ms per weight unit is 40 %.
    expect(written.some((w) => w.includes(' 40% pump events'))).toBe(true);
    expect(written.at(-1)).toMatch(/\[#+\] 100% done\s*\n$/);
    // No plain stage lines on a terminal, only the closing one.
    expect(lines).toEqual(['scale seed: done in 4 s']);
    expect(progressBar('t', 'n', 0.5, undefined, 80)).toMatch(/^t \[#{15}-{15}\] {2}50% n$/);
  });
});
