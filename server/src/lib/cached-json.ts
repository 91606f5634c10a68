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
 */
export type CachedJson = { text: string; encoded(encoding: Encoding): Promise<Buffer>; bytes(): Buffer };

export function cachedJson(text: string): CachedJson {
  const forms = new Map<Encoding, Promise<Buffer>>();
  let bytes: Buffer | undefined;
  return {
    text,
    /** The text as bytes, made once: sending a string copies it into a new buffer per request (11 MB each). */
    bytes: () => (bytes ??= Buffer.from(text)),
    encoded(encoding) {
      let form = forms.get(encoding);
      if (!form) {
        // Brotli quality 5 is near gzip's speed with a third less size; both run on libuv's thread pool.
        form = encoding === 'br' ? brotli(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length } }) : gzip(text, { level: 6 });
        forms.set(encoding, form);
        form.catch(() => forms.delete(encoding));
      }
      return form;
    },
  };
}

/** Sends the answer in the best encoding the caller accepts (compression middleware steps aside for an encoded body). */
export async function sendCachedJson(req: Request, res: Response, answer: CachedJson): Promise<void> {
  res.vary('Accept-Encoding');
  const encoding = answer.text.length > 1024 ? preferred(req.headers['accept-encoding'], ENCODINGS) : undefined;
  if (!encoding) {
    res.type('json').send(answer.bytes());
    return;
  }
  const body = await answer.encoded(encoding.name);
  res.set('Content-Encoding', encoding.name).type('json').send(body);
}
