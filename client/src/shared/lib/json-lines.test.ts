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

/** The text's UTF-8 bytes as a stream of chunks of `size` bytes (an answer's body as it arrives). */
function streamOf(text: string, size: number, onCancel?: () => void): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
    cancel: onCancel,
  });
}

describe('eachJsonLine over an answer arriving in chunks', () => {
  const labels = ['a "quoted", label\\n,\\n', 'Café Ölçü – 日本', null];
  const tuples = Array.from({ length: 25 }, (_, i) => [`S${i}`, i, labels[i % 3]]);
  const oneALine = `[${tuples.map((t) => JSON.stringify(t)).join(',\n')}]\n`;

  it('hands over the same elements in order, in the same slices, wherever the chunks are cut, a ",\\n" or a character split between two chunks included', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const size of [1, 2, 3, 7, 40, 1000]) {
        for (const perSlice of [1, 4, 30]) {
          const out: unknown[] = [];
          parse.mockClear();
          await eachJsonLine(streamOf(oneALine, size), (t) => out.push(t), perSlice);
          expect(out, `chunks of ${size}, ${perSlice} a slice`).toEqual(tuples);
          expect(parse, `parses, chunks of ${size}, ${perSlice} a slice`).toHaveBeenCalledTimes(Math.ceil(25 / perSlice));
        }
      }
    } finally {
      parse.mockRestore();
    }
    const oneLine: unknown[] = [];
    await eachJsonLine(streamOf(` ${JSON.stringify(tuples)}`, 5), (t) => oneLine.push(t));
    expect(oneLine).toEqual(tuples);
  });

  it('parses a slice as soon as its lines have come, before the rest of the answer', async () => {
    const seen: unknown[] = [];
    let pulls = 0;
    const chunks = ['[1,\n2,\n', '3,\n4,\n', '5]'];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // When the third chunk is asked for, the first slice (1, 2) has been handed over.
        if (pulls === 2) expect(seen).toEqual([1, 2]);
        const chunk = chunks[pulls++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    await eachJsonLine(stream, (t) => seen.push(t), 2);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses what is not a whole JSON array, and stops reading an answer that does not parse', async () => {
    await expect(eachJsonLine(streamOf('', 4), () => undefined)).rejects.toThrow('not a JSON array');
    await expect(eachJsonLine(streamOf('{"detail":"x"}', 4), () => undefined)).rejects.toThrow('not a JSON array');
    await expect(eachJsonLine(streamOf('[1,\n2,\n3', 4), () => undefined)).rejects.toThrow('ended before its JSON array');
    let cancelled = false;
    const broken = `[1,\n{oops,\n${Array.from({ length: 50 }, (_, i) => i).join(',\n')}]`;
    await expect(
      eachJsonLine(
        streamOf(broken, 3, () => (cancelled = true)),
        () => undefined,
        1,
      ),
    ).rejects.toThrow(SyntaxError);
    expect(cancelled).toBe(true);
  });
});
