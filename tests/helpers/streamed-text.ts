import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { StreamedJson } from '../../server/src/lib/streamed-json.ts';

/** A streamed answer (server/src/lib/streamed-json.ts) read whole, from its first byte, and decompressed. */
export async function streamedText(answer: StreamedJson): Promise<string> {
  const parts: Buffer[] = [];
  await answer.pipeTo(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        parts.push(chunk);
        done();
      },
    }),
  );
  const whole = Buffer.concat(parts);
  return (answer.encoding === 'br' ? zlib.brotliDecompressSync(whole) : zlib.gunzipSync(whole)).toString();
}
