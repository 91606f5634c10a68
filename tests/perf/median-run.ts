import type { LighthouseFigures } from './lighthouse.ts';

/**
 * The run in the middle of several of one page: by score, then by TBT (the lower middle of an even count).
 * One run on this small shared machine moves by a tenth of a score from the next; Lighthouse's own advice
 * is the median of several. Null for no runs.
 */
export function medianRun(runs: readonly LighthouseFigures[]): LighthouseFigures | null {
  if (!runs.length) return null;
  const sorted = [...runs].sort((a, b) => a.score - b.score || b.tbt - a.tbt);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
