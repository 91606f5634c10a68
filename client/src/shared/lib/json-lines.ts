import { yieldToBrowser } from './yield-to-browser';

/** Elements parsed in one task: about 25 ms of the pin feed's tuples under a 4x CPU slowdown. */
export const LINES_PER_SLICE = 10_000;

/**
 * A JSON array written one element a line (`[a,\nb,\nc]`, as the pin feed is: the server joins its tuples
 * with ',\n') parsed a slice of lines at a time, each slice in a task of its own, each element through
 * `decode`. One JSON.parse of the 100,000-device feed (about 6 MB) was one task of 180-280 ms under
 * Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts --devices 100000). A raw newline cannot occur
 * inside a JSON string, so each line is one element. An array on one line (a small answer, another
 * server) is parsed whole.
 */
export async function parseJsonLines<T>(text: string, decode: (element: unknown) => T, perSlice = LINES_PER_SLICE): Promise<T[]> {
  const trimmed = text.trim();
  if (!trimmed.includes('\n')) return (JSON.parse(trimmed) as unknown[]).map(decode);
  const lines = trimmed.slice(1, -1).split(',\n');
  const out: T[] = [];
  for (let at = 0; at < lines.length; at += perSlice) {
    if (at > 0) await yieldToBrowser();
    const slice = JSON.parse(`[${lines.slice(at, at + perSlice).join(',')}]`) as unknown[];
    for (const element of slice) out.push(decode(element));
  }
  return out;
}
