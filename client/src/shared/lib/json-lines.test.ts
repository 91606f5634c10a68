import { describe, expect, it } from 'vitest';
import { parseJsonLines } from './json-lines';

describe('parseJsonLines', () => {
  const tuples = Array.from({ length: 25 }, (_, i) => [`S${i}`, i, i % 2 === 0 ? 'a "quoted", label\\n,\\n' : null]);
  const oneALine = `[${tuples.map((t) => JSON.stringify(t)).join(',\n')}]`;

  it('parses one element a line in slices, the same as one parse, strings with commas and escaped newlines included', async () => {
    expect(await parseJsonLines(oneALine, (t) => t, 4)).toEqual(tuples);
    expect(await parseJsonLines(oneALine, (t) => (t as unknown[])[0], 10)).toEqual(tuples.map((t) => t[0]));
  });

  it('parses an array on one line, and the empty one, whole', async () => {
    expect(await parseJsonLines(JSON.stringify(tuples), (t) => t, 4)).toEqual(tuples);
    expect(await parseJsonLines('[]', (t) => t)).toEqual([]);
    expect(await parseJsonLines('[\n]', (t) => t)).toEqual([]);
  });
});
