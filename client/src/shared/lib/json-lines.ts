import { yieldToBrowser } from './yield-to-browser';

/**
 * Elements parsed in one task: under a 4x CPU slowdown on a slow host (`/healthz` 3,800 req/s) 10,000 of the
 * pin feed's tuples were a task of about 260 ms (tests/perf/map-trace.ts), and Lighthouse counts every
 * millisecond of a task over 50 as blocking; 2,000 are about 50.
 */
export const LINES_PER_SLICE = 2_000;

/**
 * A JSON array written one element a line (`[a,\nb,\nc]`, as the pin feed is: the server joins its tuples
 * with ',\n') parsed a slice of lines at a time, each slice in a task of its own, each element handed to
 * `visit` as its slice is parsed. One JSON.parse of the 100,000-device feed (about 6 MB) was one task of 180-280 ms under
 * Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts --devices 100000). A raw newline cannot occur
 * inside a JSON string, so each line is one element, and a run of whole lines between the brackets is
 * itself a valid array's inside (the ',\n' between them is JSON's own comma and white space): each slice
 * is parsed from a substring of the text as it is, never split into lines and joined again (that split
 * was another 100,000 strings in one task). An array on one line (a small answer, another server) is
 * parsed whole.
 */
export async function eachJsonLine(text: string, visit: (element: unknown) => void, perSlice = LINES_PER_SLICE): Promise<void> {
  const trimmed = text.trim();
  if (!trimmed.includes('\n')) {
    for (const element of JSON.parse(trimmed) as unknown[]) visit(element);
    return;
  }
  const end = trimmed.length - 1; // the closing bracket
  let from = 1; // after the opening bracket
  while (from < end) {
    if (from > 1) await yieldToBrowser();
    // The end of this slice's last line: the perSlice-th ',\n' from here, or the closing bracket.
    let to = from;
    for (let n = 0; n < perSlice && to < end; n++) {
      const next = trimmed.indexOf(',\n', to);
      to = next < 0 || next > end ? end : next + 2;
    }
    const inside = to < end ? trimmed.slice(from, to - 2) : trimmed.slice(from, end);
    if (inside.trim()) for (const element of JSON.parse(`[${inside}]`) as unknown[]) visit(element);
    from = to;
  }
}
