import { yieldWhenDue } from './yield-to-browser';

/**
 * Elements parsed at once: under a 4x CPU slowdown on a slow host (`/healthz` 3,800 req/s) 10,000 of the pin
 * feed's tuples were a task of about 260 ms (tests/perf/map-trace.ts); 250 are about 7-15 ms, and a task
 * takes as many parses as fit in TASK_BUDGET_MS on the machine it runs on (yieldWhenDue).
 */
export const LINES_PER_SLICE = 250;

/** Text of a JSON array, whole or as it arrives: a string, or an answer's body (UTF-8). */
export type JsonText = string | ReadableStream<Uint8Array>;

/**
 * A JSON array written one element a line (`[a,\nb,\nc]`, as the pin feed is: the server joins its tuples
 * with ',\n') parsed a slice of lines at a time, as many slices a task as fit in its time, each element handed to
 * `visit` as its slice is parsed. One JSON.parse of the 100,000-device feed (about 6 MB) was one task of 180-280 ms under
 * Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts --devices 100000). A raw newline cannot occur
 * inside a JSON string, so each line is one element, and a run of whole lines between the brackets is
 * itself a valid array's inside (the ',\n' between them is JSON's own comma and white space): each slice
 * is parsed from a substring of the text as it is, never split into lines and joined again (that split
 * was another 100,000 strings in one task). An array on one line (a small answer, another server) is
 * parsed whole, when its end has come.
 *
 * Given the answer's body as a stream, slices are parsed while the rest is still arriving, and the whole
 * text is never one string: the 7.47 MB feed read with `Response.text()` reached the page in one task of
 * 433 ms with no script in it (Chromium's copy of the body for DevTools: tests/perf/map-trace.ts with
 * CATEGORIES=blink EVENTS=1).
 */
export async function eachJsonLine(
  text: JsonText,
  visit: (element: unknown) => void,
  perSlice = LINES_PER_SLICE,
  pause: () => Promise<void> = yieldWhenDue(),
): Promise<void> {
  let buffer = ''; // the array's inside not parsed yet: after its '[', whole lines and perhaps part of one
  let opened = false;
  let scanFrom = 0; // where the search for the next ',\n' resumes
  let lines = 0; // ',\n' counted in the buffer before scanFrom
  let slices = 0;

  const parse = async (inside: string) => {
    if (slices++ > 0) await pause();
    if (inside.trim()) for (const element of JSON.parse(`[${inside}]`) as unknown[]) visit(element);
  };

  const take = async (chunk: string) => {
    if (!opened) {
      const start = chunk.trimStart();
      if (!start) return;
      if (start[0] !== '[') throw new SyntaxError('The answer is not a JSON array.');
      opened = true;
      chunk = start.slice(1);
    }
    // A ',' at the old end may pair with a '\n' at the new start.
    scanFrom = Math.max(0, Math.min(scanFrom, buffer.length - 1));
    buffer += chunk;
    for (let at = buffer.indexOf(',\n', scanFrom); at >= 0; at = buffer.indexOf(',\n', scanFrom)) {
      scanFrom = at + 2;
      if (++lines < perSlice) continue;
      const inside = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      scanFrom = 0;
      lines = 0;
      await parse(inside);
    }
    scanFrom = buffer.length;
  };

  if (typeof text === 'string') await take(text);
  else {
    const reader = text.getReader();
    // A character cut between two chunks is kept until its end comes (stream: true).
    const utf8 = new TextDecoder();
    try {
      for (let part = await reader.read(); !part.done; part = await reader.read())
        await take(utf8.decode(part.value, { stream: true }));
      await take(utf8.decode());
    } catch (error) {
      // A slice that does not parse: the rest of the answer is not read.
      await reader.cancel().catch(() => undefined);
      throw error;
    }
  }

  const rest = buffer.trimEnd();
  if (!opened) throw new SyntaxError('The answer is empty, not a JSON array.');
  if (!rest.endsWith(']')) throw new SyntaxError('The answer ended before its JSON array did.');
  await parse(rest.slice(0, -1));
}
