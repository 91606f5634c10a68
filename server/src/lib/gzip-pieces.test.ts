import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, deflatePiece, deflatePieceSync, GzipJoin } from './gzip-pieces.ts';

const text = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `{"serial":"SP${seed * 1000 + i}","label":"Café ☀ ${i % 7}"}`).join(','));

describe('gzip joined from pieces compressed apart', () => {
  it('combines CRC-32s as zlib does, for any lengths', () => {
    const a = Buffer.from('The whole device list, ');
    const b = text(300, 1);
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])));
    expect(crc32Combine(zlib.crc32(a), 0, 0)).toBe(zlib.crc32(a));
    expect(crc32Combine(0, zlib.crc32(b), b.length)).toBe(zlib.crc32(b));
    for (const n of [1, 2, 3, 255, 65_536, 1_000_003]) {
      const big = Buffer.alloc(n, 'x');
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(big), n)).toBe(zlib.crc32(Buffer.concat([a, big])));
    }
  });

  it('joins pieces into one gzip stream that gunzip (and a strict reader) takes whole', async () => {
    const texts = [Buffer.from('['), text(2000, 1), Buffer.from(','), Buffer.alloc(0), text(1, 2), Buffer.from(']')];
    const pieces = await Promise.all(texts.map((t) => (t.length > 10 ? deflatePiece(t) : deflatePieceSync(t))));
    const join = new GzipJoin();
    const bytes = Buffer.concat([join.header, ...pieces.map((p) => join.add(p)), join.end()]);
    const expected = Buffer.concat(texts);
    expect(join.textLength()).toBe(expected.length);
    expect(zlib.gunzipSync(bytes).equals(expected)).toBe(true);
    // A stream reader that checks the trailer as it ends (as a browser or curl does).
    const chunks: Buffer[] = [];
    const gunzip = zlib.createGunzip();
    gunzip.on('data', (c: Buffer) => chunks.push(c));
    await new Promise<void>((resolve, reject) => {
      gunzip.on('end', resolve).on('error', reject);
      gunzip.end(bytes);
    });
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    // The pieces are compressed: well under the text.
    expect(bytes.length).toBeLessThan(expected.length / 4);
  });

  it('a wrong checksum is refused, so the trailer is really checked', async () => {
    const join = new GzipJoin();
    const piece = await deflatePiece(text(50, 3));
    const bytes = Buffer.concat([join.header, join.add(piece), join.end()]);
    bytes[bytes.length - 8]! ^= 1;
    expect(() => zlib.gunzipSync(bytes)).toThrow();
  });

  it('an empty answer is a valid gzip of nothing', () => {
    const join = new GzipJoin();
    expect(zlib.gunzipSync(Buffer.concat([join.header, join.end()])).length).toBe(0);
  });
});
