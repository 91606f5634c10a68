import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * One gzip answer joined from pieces compressed apart (RFC 1951 and 1952), so that an answer of which only
 * a few pieces changed is compressed again only there (issue 46: the whole device list at 100,000 devices
 * is 117 MB of text; kept-list.ts keeps it as pieces per range of sites).
 *
 * Each piece is a raw deflate stream ended with a sync flush (Z_SYNC_FLUSH: the last block is not final and
 * ends on a byte, then an empty stored block), so the pieces laid one after the other are one valid deflate
 * stream. The answer is a gzip header, the pieces, a final empty block, and the trailer: the CRC-32 of the
 * whole text, which crc32Combine makes from the pieces' own without their text, and its length mod 2^32.
 *
 * Written here rather than taken from a library: node:zlib does all the compressing and the checksums
 * (zlib.crc32); what is left is the framing and zlib's crc32_combine, a few lines with no package of
 * their own on npm that is kept up.
 */
export type DeflatedPiece = {
  /** Raw deflate, ended by a sync flush; empty for an empty text. */
  readonly deflated: Buffer;
  /** CRC-32 of the text. */
  readonly crc: number;
  /** Bytes of the text. */
  readonly length: number;
};

/** Gzip's level for the pieces: 3, as the streamed answers (streamed-json.ts says why). */
const LEVEL = 3;
const deflateRaw = promisify(zlib.deflateRaw);

/**
 * Compresses one piece in zlib's thread pool (the event loop is not held while 100 kB are compressed), at
 * `level` (LEVEL unless a caller's pieces are worth more: the pin feed's, kept-list.ts).
 */
export async function deflatePiece(text: Buffer, level = LEVEL): Promise<DeflatedPiece> {
  if (!text.length) return { deflated: Buffer.alloc(0), crc: 0, length: 0 };
  const deflated = await deflateRaw(text, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { deflated, crc: zlib.crc32(text), length: text.length };
}

/** The same, on the event loop: for the few bytes of a separator. */
export function deflatePieceSync(text: Buffer): DeflatedPiece {
  if (!text.length) return { deflated: Buffer.alloc(0), crc: 0, length: 0 };
  const deflated = zlib.deflateRawSync(text, { level: LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { deflated, crc: zlib.crc32(text), length: text.length };
}

/** Gzip's header: deflate, no flags, no time, OS unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final fixed-Huffman block holding only its end: BFINAL 1, BTYPE 01, code 256 (seven 0 bits). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** The running checksum and length of the pieces given so far (in their order), and the gzip trailer. */
export class GzipJoin {
  private crc = 0;
  private length = 0;
  readonly header = HEADER;

  /** Adds a piece; its deflated bytes are what goes out next. */
  add(piece: DeflatedPiece): Buffer {
    this.crc = crc32Combine(this.crc, piece.crc, piece.length);
    this.length += piece.length;
    return piece.deflated;
  }

  /** Bytes of text added so far. */
  textLength(): number {
    return this.length;
  }

  /** The final block and the trailer (CRC-32, then the length mod 2^32, both little-endian). */
  end(): Buffer {
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.length % 2 ** 32, 4);
    return Buffer.concat([FINAL_BLOCK, trailer]);
  }
}

// CRC-32 combination, as zlib's crc32_combine (zlib 1.2.12 and after: multmodp and x2nmodp), over the
// reflected polynomial. Polynomials are 32-bit words, x^0 in the top bit.
const POLY = 0xedb88320;
const TOP = 0x80000000;

/** a(x) b(x) modulo p(x). */
function multmodp(a: number, b: number): number {
  let m = TOP;
  let p = 0;
  for (;;) {
    if ((a & m) >>> 0) {
      p = (p ^ b) >>> 0;
      if ((a & (m - 1)) >>> 0 === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? ((b >>> 1) ^ POLY) >>> 0 : b >>> 1;
  }
  return p;
}

/** X2N[k] = x^(2^k) modulo p(x). */
const X2N: number[] = (() => {
  const table: number[] = [];
  let p = TOP >>> 1; // x^1
  table.push(p);
  for (let k = 1; k < 32; k++) table.push((p = multmodp(p, p)));
  return table;
})();

/** x^(n 2^k) modulo p(x). */
function x2nmodp(n: number, k: number): number {
  let p = TOP; // x^0
  while (n > 0) {
    if (n % 2) p = multmodp(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multmodp(x2nmodp(lengthB, 3), crcA >>> 0) ^ (crcB >>> 0)) >>> 0;
}
