import { describe, expect, it, vi } from 'vitest';
import { eachJsonLine } from './json-lines';

/** The elements as a list, each through `decode` (what the pin feed's reader does, keyed by serial there). */
async function parseJsonLines<T>(text: string, decode: (element: unknown) => T, perSlice?: number): Promise<T[]> {
  const out: T[] = [];
  await eachJsonLine(text, (element) => out.push(decode(element)), perSlice);
  return out;
}

describe('eachJsonLine, read into a list', () => {
  const tuples = Array.from({ length: 25 }, (_, i) => [`S${i}`, i, i % 2 === 0 ? 'a "quoted", label\\n,\\n' : null]);
  const oneALine = `[${tuples.map((t) => JSON.stringify(t)).join(',\n')}]`;

  it('parses one element a line in slices, the same as one parse, strings with commas and escaped newlines included', async () => {
    expect(await parseJsonLines(oneALine, (t) => t, 4)).toEqual(tuples);
    expect(await parseJsonLines(oneALine, (t) => (t as unknown[])[0], 10)).toEqual(tuples.map((t) => t[0]));
  });

  it('parses each slice from the text as it is, one parse a slice (25 lines, 4 a slice: 7 parses)', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(await parseJsonLines(oneALine, (t) => t, 4)).toEqual(tuples);
      expect(parse).toHaveBeenCalledTimes(7);
      expect(parse.mock.calls[0]![0]).toBe(
        `[${tuples
          .slice(0, 4)
          .map((t) => JSON.stringify(t))
          .join(',\n')}]`,
      );
    } finally {
      parse.mockRestore();
    }
    // White space around the lines (a pretty-printed array) is JSON's own.
    expect(await parseJsonLines('[\n  1,\n  2,\n  3\n]\n', (t) => t, 2)).toEqual([1, 2, 3]);
  });

  it('parses an array on one line, and the empty one, whole', async () => {
    expect(await parseJsonLines(JSON.stringify(tuples), (t) => t, 4)).toEqual(tuples);
    expect(await parseJsonLines('[]', (t) => t)).toEqual([]);
    expect(await parseJsonLines('[\n]', (t) => t)).toEqual([]);
  });
});

describe('eachJsonLine', () => {
  it('hands each element to the visitor in order, a slice a task, as parseJsonLines answers them', async () => {
    const lines = `[${Array.from({ length: 9 }, (_, i) => JSON.stringify([`S${i}`, i])).join(',\n')}]`;
    const keyed = new Map<string, number>();
    await eachJsonLine(lines, (t) => keyed.set((t as [string, number])[0], (t as [string, number])[1]), 4);
    expect([...keyed]).toEqual(Array.from({ length: 9 }, (_, i) => [`S${i}`, i]));
    expect(await parseJsonLines(lines, (t) => t, 4)).toEqual([...keyed]);
    const none: unknown[] = [];
    await eachJsonLine('[]', (t) => none.push(t));
    expect(none).toEqual([]);
  });
});
