import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { joinBytes } from './cached-json.ts';
import { preferred } from './static-client.ts';

export type StreamEncoding = 'br' | 'gzip';

/** Answers up to this size go plain, as sendCachedJson sends them (compressing a few hundred bytes gains nothing). */
const SMALL_BYTES = 1024;
/** Compressed chunks of 64 kB: the 100,000-device list (about 10 MB compressed) is some 160 of them. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A JSON answer compressed while it is read, kept as its compressed chunks only (issue 46: the whole device
 * list at 100,000 devices is 117 MB of text, more than the aggregate cache's budget; compressed it is about
 * a tenth of that). The text passes through in pieces (one read of the database each) and is dropped once
 * the compressor has taken it, so the answer never exists whole in memory uncompressed.
 *
 * Readers stream it from its first chunk whenever they come: one that arrives while it is still being read
 * gets the chunks made so far at once and the rest as they are made, so callers share one read of the
 * database and one compression however many arrive, and none waits for the whole answer before its first
 * byte.
 */
export type StreamedJson = {
  readonly encoding: StreamEncoding;
  /** Compressed bytes held so far (what the cache's byte budget counts). */
  bytes(): number;
  /** Resolves when the whole answer is compressed; rejects when reading it failed. */
  readonly done: Promise<void>;
  /**
   * Resolves once the answer is known to be more than SMALL_BYTES (undefined) or is whole and no larger (its
   * plain bytes): the caller then knows how to answer. Rejects when reading failed before that (the caller
   * can still answer with an error status: nothing was sent).
   */
  started(): Promise<Buffer | undefined>;
  /** Writes the compressed answer into `out`, from its first byte, as it is made; honours backpressure. */
  pipeTo(out: Writable): Promise<void>;
  /** Plain bytes of the whole answer, once done (for a Content-Length on a plain answer). */
  plainBytes(): number | undefined;
  /** Plain bytes taken from the source that the compressor has not consumed yet: all of the text held. */
  held(): number;
};

export function streamedJson(encoding: StreamEncoding, pieces: AsyncIterable<Buffer>): StreamedJson {
  // Brotli quality 3 and gzip level 3: the budget is a cold read's time (issue 46). On the 111 MB list of
  // 100,000 devices, gzip 3 took 260 ms for 6.5 MB where level 4 took 463 ms for 5.9 MB, and brotli 3 368 ms
  // for 4.2 MB where quality 4 took 674 ms for 3.7 MB; the cold read's p50 fell from about 1.6 to 1.35 s.
  // (Quality 4 / level 4 had already taken 12 % less of it than 5 / 6 at 10,000 devices.)
  const z =
    encoding === 'br'
      ? zlib.createBrotliCompress({ chunkSize: CHUNK_BYTES, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } })
      : zlib.createGzip({ level: 3, chunkSize: CHUNK_BYTES });
  let plain = 0;
  return chunkedAnswer(
    encoding,
    async (out) => {
      z.on('data', out.chunk);
      try {
        for await (const piece of pieces) {
          plain += piece.length;
          out.plain(piece.length, piece);
          // The next piece is asked for only when the compressor has room: at most one piece waits in it.
          if (!z.write(piece)) await once(z, 'drain');
        }
        const ended = once(z, 'end');
        z.end();
        await ended;
      } catch (err) {
        z.destroy();
        throw err;
      }
    },
    () => plain - z.bytesWritten,
  );
}

/** What a producer of a chunked answer reports as it goes. */
export type ChunkSink = {
  /** A compressed chunk, the next to send. */
  chunk(bytes: Buffer): void;
  /** `length` more bytes of text went into the chunks; `text` when the producer has it. */
  plain(length: number, text?: Buffer): void;
};

/**
 * A compressed answer made by `produce`, kept as its chunks and read by any number of callers from its first
 * chunk as it is made (what StreamedJson says). The chunks may come from a compressor (streamedJson) or be
 * kept pieces joined (kept-list.ts). `held`: text taken that is not compressed yet.
 */
export function chunkedAnswer(
  encoding: StreamEncoding,
  produce: (out: ChunkSink) => Promise<void>,
  held: () => number = () => 0,
): StreamedJson {
  const chunks: Buffer[] = [];
  // Once whole, the chunks joined: a reader that comes then writes one buffer, where writing the chunks one by
  // one (the pin feed of 100,000 devices is some 1,250 of them, its kept pieces and their separators) cost each
  // of 50 concurrent readers a write per chunk: 72 req/s against 188 for one cached buffer (npm run bench --
  // --fleet 100000 --only rest, 2026-11-30). The chunks are let go once no earlier reader still walks them.
  let joined: Buffer | null = null;
  let walking = 0;
  const letChunksGo = () => {
    if (joined && walking === 0) chunks.length = 0;
  };
  let size = 0;
  let plain = 0;
  /** The plain pieces while they are at most SMALL_BYTES together (dropped beyond); 'unknown' if some were not given. */
  let small = [] as Buffer[] | null | 'unknown';
  // Read through this: TypeScript does not see the sink's callbacks change `small`.
  const smallNow = () => small;
  let state: 'reading' | 'done' | 'failed' = 'reading';
  let error: unknown;
  let waiting: (() => void)[] = [];
  const changed = () => {
    const wake = waiting;
    waiting = [];
    for (const w of wake) w();
  };
  const next = () => new Promise<void>((resolve) => waiting.push(resolve));

  const done = (async () => {
    try {
      await produce({
        chunk(bytes) {
          chunks.push(bytes);
          size += bytes.length;
          changed();
        },
        plain(length, text) {
          plain += length;
          if (plain > SMALL_BYTES) small = null;
          else if (Array.isArray(small) && text) small.push(text);
          else if (small !== null && length) small = 'unknown';
          changed();
        },
      });
      // A small answer whose text was not all given: its text from its own bytes (at most a kilobyte).
      if (smallNow() === 'unknown') {
        const whole = Buffer.concat(chunks);
        small = [encoding === 'br' ? zlib.brotliDecompressSync(whole) : zlib.gunzipSync(whole)];
      }
      joined = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      state = 'done';
      letChunksGo();
    } catch (err) {
      state = 'failed';
      error = err;
      throw err;
    } finally {
      changed();
    }
  })();
  // Observed through started/pipeTo and by the cache (EntryOptions.settled); never an unhandled rejection.
  done.catch(() => undefined);

  return {
    encoding,
    bytes: () => size,
    done,
    plainBytes: () => (state === 'done' ? plain : undefined),
    held,
    async started() {
      for (;;) {
        if (state === 'failed') throw error;
        if (small === null) return undefined;
        if (state === 'done') return Buffer.concat(small as Buffer[]);
        await next();
      }
    },
    async pipeTo(out) {
      if (joined) {
        if (!out.destroyed && !out.write(joined)) await drained(out);
        return;
      }
      walking++;
      try {
        let sent = 0;
        while (!out.destroyed) {
          if (sent < chunks.length) {
            if (!out.write(chunks[sent++])) await drained(out);
          } else if (state === 'done') return;
          else if (state === 'failed') throw error;
          else await next();
        }
      } finally {
        walking--;
        letChunksGo();
      }
    },
  };
}

/** Resolves when `out` can take more, or is gone (a caller who hung up). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      out.off('drain', go);
      out.off('close', go);
      resolve();
    };
    out.on('drain', go);
    out.on('close', go);
  });
}

/**
 * The bytes of one JSON array from batches of its items (each item already JSON text), one buffer a batch:
 * `[a,b` `,c,d` ... `]`, together exactly what jsonArrayBytes makes of all the items at once.
 */
export async function* jsonArrayPieces(batches: AsyncIterable<readonly string[]>): AsyncGenerator<Buffer> {
  let first = true;
  for await (const items of batches) {
    if (!items.length) continue;
    yield joinBytes(items, first ? '[' : ',', '');
    first = false;
  }
  yield Buffer.from(first ? '[]' : ']');
}

/**
 * Sends a streamed answer in the best encoding the caller accepts: brotli or gzip as they are kept; plain
 * (a caller accepting neither) decompressed from the gzip form as it is sent, so no plain copy is kept.
 * `answer` gives the (shared, cached) answer in an encoding. An answer of at most SMALL_BYTES goes plain.
 * A read that fails before anything is sent is thrown (the error handler answers, 503 when the database is
 * down); after that, the connection is closed mid-answer, which the caller sees as an incomplete answer.
 */
export async function sendStreamedJson(
  req: Request,
  res: Response,
  answer: (encoding: StreamEncoding) => Promise<StreamedJson>,
  /** The encodings in the order taken when the caller weighs them alike. */
  prefer: readonly StreamEncoding[] = ['br', 'gzip'],
): Promise<void> {
  res.vary('Accept-Encoding');
  const wanted = preferred(
    req.headers['accept-encoding'],
    prefer.map((name) => ({ name })),
  )?.name;
  const streamed = await answer(wanted ?? 'gzip');
  const small = await streamed.started();
  res.type('json');
  if (small) return void res.send(small);
  try {
    if (wanted) {
      res.set('Content-Encoding', wanted);
      // Whole already: its length is known (and the caller can show progress).
      if (streamed.plainBytes() !== undefined) res.set('Content-Length', String(streamed.bytes()));
      await streamed.pipeTo(res);
      if (!res.destroyed) res.end();
    } else {
      const plainBytes = streamed.plainBytes();
      if (plainBytes !== undefined) res.set('Content-Length', String(plainBytes));
      const gunzip = zlib.createGunzip();
      const fed = streamed.pipeTo(gunzip).then(
        () => void (gunzip.destroyed || gunzip.end()),
        (err: Error) => gunzip.destroy(err),
      );
      await Promise.all([pipeline(gunzip, res), fed]);
    }
  } catch (err) {
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  }
}
