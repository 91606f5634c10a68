import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { preferred } from './static-client.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const ENCODINGS = [{ name: 'br' }, { name: 'gzip' }] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];

/**
 * A JSON answer kept ready to send, with its brotli and gzip forms made once (on first demand) instead of
 * per request: the device list of 10,000 devices is 11 MB of text, about 0.1 s of CPU to compress, which
 * 50 concurrent callers used to pay 50 times over (and hold 50 copies of in memory).
 *
 * Held as bytes only, and compressed from those bytes: a string beside them (or one made per request, or
 * one zlib makes from a string argument) is another 11 MB per copy, and the server's peak memory was
 * mostly such copies of the list.
 */
export type CachedJson = {
  /** The answer as text (decoded on demand: for tests and callers that need a string). */
  readonly text: string;
  encoded(encoding: Encoding): Promise<Buffer>;
  /** The encodings asked of it so far (made or being made). */
  formed(): Encoding[];
  bytes(): Buffer;
};

/**
 * `next` once it has the encodings `previous` was asked for: a cached answer's refresh (aggregate-cache) is
 * swapped in only then, so the callers right after the swap are not all held behind compressing it. At
 * 100,000 devices the pin feed is 7 MB of text; gzip took a few hundred ms of a loaded slow host, every 2 s
 * refresh, and that wait was the feed's p99 (PERFORMANCE.md, issue 46). A first answer (nothing before it)
 * is compressed on first demand as before, in the encoding that caller accepts.
 */
export async function encodedLike(next: CachedJson, previous: Promise<CachedJson> | undefined): Promise<CachedJson> {
  const before = await previous?.catch(() => undefined);
  if (before) await Promise.all(before.formed().map((e) => next.encoded(e)));
  return next;
}

export function cachedJson(body: string | Buffer): CachedJson {
  const forms = new Map<Encoding, Promise<Buffer>>();
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    get text() {
      return bytes.toString();
    },
    /** The same buffer for every request: sending a string copies it into a new buffer per request (11 MB each). */
    bytes: () => bytes,
    formed: () => [...forms.keys()],
    encoded(encoding) {
      let form = forms.get(encoding);
      if (!form) {
        // Brotli quality 5 is near gzip's speed with a third less size; both run on libuv's thread pool.
        form =
          encoding === 'br'
            ? brotli(bytes, {
                params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
              })
            : gzip(bytes, { level: 6 });
        forms.set(encoding, form);
        form.catch(() => forms.delete(encoding));
      }
      return form;
    },
  };
}

/**
 * JSON text pieces (rows of one array, each already JSON) joined into the bytes of `[a,b,...]` in one
 * buffer, without first joining them into one string: for the 11 MB list that string was a copy as big as
 * the answer itself.
 */
export function jsonArrayBytes(items: readonly string[]): Buffer {
  return joinBytes(items, '[', ']');
}

/** `open`, the items joined with `separator` (a comma), `close`: in one buffer (open, separator and close are ASCII). */
export function joinBytes(items: readonly string[], open: string, close: string, separator = ','): Buffer {
  let size = open.length + close.length + Math.max(0, items.length - 1) * separator.length;
  for (const item of items) size += Buffer.byteLength(item);
  const out = Buffer.allocUnsafe(size);
  let at = out.write(open, 0, 'latin1');
  items.forEach((item, i) => {
    if (i) at += out.write(separator, at, 'latin1');
    at += out.write(item, at);
  });
  out.write(close, at, 'latin1');
  return out;
}

/** Sends the answer in the best encoding the caller accepts (compression middleware steps aside for an encoded body). */
export async function sendCachedJson(req: Request, res: Response, answer: CachedJson): Promise<void> {
  res.vary('Accept-Encoding');
  const encoding = answer.bytes().length > 1024 ? preferred(req.headers['accept-encoding'], ENCODINGS) : undefined;
  if (!encoding) {
    res.type('json').send(answer.bytes());
    return;
  }
  const body = await answer.encoded(encoding.name);
  res.set('Content-Encoding', encoding.name).type('json').send(body);
}
