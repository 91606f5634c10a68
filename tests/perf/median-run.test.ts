import { describe, expect, it } from 'vitest';
import type { LighthouseFigures } from './lighthouse.ts';
import { medianRun } from './median-run.ts';

const run = (score: number, tbt: number): LighthouseFigures => ({
  score,
  tbt,
  fcp: 1800,
  lcp: 2200,
  scriptKb: 346,
  longTasks: 20,
  longestTask: 400,
  longestOwnTask: 180,
});

describe('medianRun (npm run bench: the Lighthouse run reported for a page)', () => {
  it('answers the run in the middle by score, whatever the order the runs came in', () => {
    expect(medianRun([run(0.71, 1519), run(0.66, 1889), run(0.67, 1961)])).toEqual(run(0.67, 1961));
    expect(medianRun([run(0.9, 100)])).toEqual(run(0.9, 100));
  });

  it('breaks a tie of scores by TBT, and takes the worse middle of an even count', () => {
    expect(medianRun([run(0.68, 1200), run(0.68, 1900), run(0.68, 1500)])).toEqual(run(0.68, 1500));
    expect(medianRun([run(0.7, 1000), run(0.6, 2500), run(0.8, 500), run(0.65, 2000)])).toEqual(run(0.65, 2000));
  });

  it('answers null for no runs (every one failed)', () => {
    expect(medianRun([])).toBeNull();
  });
});
