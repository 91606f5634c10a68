import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { jsonArrayBytes } from './cached-json.ts';
import { compressAnswers } from './compression.ts';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import {
  chunkedAnswer,
  jsonArrayPieces,
  sendStreamedJson,
  streamedJson,
  type StreamEncoding,
  type StreamedJson,
} from './streamed-json.ts';

const row = (i: number) =>
  JSON.stringify({ serial: `SP${240000 + i}`, label: `Dispenser ${i} "Café ☀"`, is_online: i % 3 === 0 });
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => row(from + i));
async function* batches(...list: string[][]) {
  for (const b of list) yield b;
}

/** A source whose batches come out one at a time, as the test lets them (`release`). */
function gated(list: string[][]) {
  let allowed = 0;
  let pulled = 0;
  let wake: () => void = () => undefined;
  return {
    get pulled() {
      return pulled;
    },
    release() {
      allowed++;
      wake();
    },
    async *source() {
      for (const b of list) {
        while (allowed <= pulled) await new Promise<void>((resolve) => (wake = resolve));
        pulled++;
        yield b;
      }
    },
  };
}

const appSending = (answer: (encoding: StreamEncoding) => Promise<StreamedJson>) => {
  const app = express();
  // Behind the compression middleware, as in app.ts: it must not compress the encoded body again.
  app.use(compressAnswers());
  app.get('/list', (req, res, next) => void sendStreamedJson(req, res, answer).catch(next));
  return app;
};

describe('streamed JSON answers', () => {
  it('joins batches into exactly the bytes of one array, empty batches and no batches too', async () => {
    const all = rows(0, 7);
    const joined = async (list: string[][]) => {
      const parts: Buffer[] = [];
      for await (const piece of jsonArrayPieces(batches(...list))) parts.push(piece);
      return Buffer.concat(parts).toString();
    };
    expect(await joined([all.slice(0, 3), [], all.slice(3, 4), all.slice(4)])).toBe(jsonArrayBytes(all).toString());
    expect(await joined([all])).toBe(`[${all.join(',')}]`);
    expect(await joined([])).toBe('[]');
    expect(await joined([[], []])).toBe('[]');
  });

  it('sends brotli, gzip or plain text as accepted, the same text in each; a small answer goes plain', async () => {
    const all = rows(0, 3000);
    const text = `[${all.join(',')}]`;
    const made: StreamEncoding[] = [];
    const answers = new Map<StreamEncoding, StreamedJson>();
    const app = appSending(async (encoding) => {
      if (!answers.has(encoding)) {
        made.push(encoding);
        answers.set(encoding, streamedJson(encoding, jsonArrayPieces(batches(all.slice(0, 1000), all.slice(1000)))));
      }
      return answers.get(encoding)!;
    });
    const br = await request(app).get('/list').set('Accept-Encoding', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.text).toBe(text);
    const gz = await request(app).get('/list').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(text);
    // Once whole, its length is told.
    await answers.get('gzip')!.done;
    const again = await request(app).get('/list').set('Accept-Encoding', 'gzip');
    expect(again.text).toBe(text);
    expect(Number(again.headers['content-length'])).toBe(answers.get('gzip')!.bytes());
    const plain = await request(app).get('/list').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(text);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(text));
    // Plain is decompressed from the gzip form: no third read.
    expect(made).toEqual(['br', 'gzip']);
    expect(answers.get('gzip')!.bytes()).toBeLessThan(Buffer.byteLength(text) / 5);

    const tiny = appSending(async (encoding) => streamedJson(encoding, jsonArrayPieces(batches([row(1)]))));
    const small = await request(tiny).get('/list').set('Accept-Encoding', 'gzip, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.text).toBe(`[${row(1)}]`);
    const none = await request(appSending(async (encoding) => streamedJson(encoding, jsonArrayPieces(batches())))).get('/list');
    expect(none.text).toBe('[]');
  });

  it('serves callers who come while it is read from the same read, from its first byte', async () => {
    const list = Array.from({ length: 6 }, (_, i) => rows(i * 500, 500));
    const text = `[${list.flat().join(',')}]`;
    const source = gated(list);
    let reads = 0;
    let answer: StreamedJson | undefined;
    const app = appSending(async (encoding) => {
      if (!answer) {
        reads++;
        answer = streamedJson(encoding, jsonArrayPieces(source.source()));
      }
      return answer;
    });
    const first = request(app)
      .get('/list')
      .set('Accept-Encoding', 'gzip')
      .then((r) => r);
    for (let i = 0; i < 3; i++) {
      source.release();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(source.pulled).toBe(3);
    // Half the list read, some of it compressed: a caller arriving now joins this read.
    const second = request(app)
      .get('/list')
      .set('Accept-Encoding', 'gzip')
      .then((r) => r);
    const plain = request(app)
      .get('/list')
      .set('Accept-Encoding', 'identity')
      .then((r) => r);
    for (let i = 0; i < 4; i++) {
      source.release();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const res of await Promise.all([first, second, plain])) {
      expect(res.status).toBe(200);
      expect(res.text).toBe(text);
    }
    expect(reads).toBe(1);
    expect(source.pulled).toBe(6);
  });

  it('holds at most a batch or two of the text at a time, however long the answer', async () => {
    const BATCH = 100;
    const COUNT = 200;
    const made: { answer?: StreamedJson } = {};
    let batchBytes = 0;
    let mostHeld = 0;
    let compressedAtHalf = 0;
    async function* source() {
      for (let b = 0; b < COUNT; b++) {
        const batch = rows(b * BATCH, BATCH);
        batchBytes = Math.max(batchBytes, Buffer.byteLength(batch.join(',')) + 1);
        // Asked for the next batch: what the compressor has not taken yet is all the text the answer holds.
        if (made.answer) mostHeld = Math.max(mostHeld, made.answer.held());
        if (b === COUNT / 2) compressedAtHalf = made.answer!.bytes();
        yield batch;
      }
    }
    const answer = (made.answer = streamedJson('gzip', jsonArrayPieces(source())));
    await answer.done;
    const plain = answer.plainBytes()!;
    expect(plain).toBeGreaterThan(COUNT * batchBytes * 0.9);
    expect(mostHeld).toBeLessThanOrEqual(2 * batchBytes);
    // Compressed as it was read, not at the end.
    expect(compressedAtHalf).toBeGreaterThan(0);
    expect(answer.bytes()).toBeLessThan(plain / 5);
    expect(answer.held()).toBe(0);
  });

  it('a read that fails before the first byte is the error handler’s to answer; the answer rejects', async () => {
    // The first read of the database fails.
    const failing: AsyncIterable<string[]> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('database down')) }),
    };
    const answer = streamedJson('gzip', jsonArrayPieces(failing));
    const app = appSending(async () => answer);
    app.use(
      ((err, _req, res, _next) => void res.status(503).json({ detail: (err as Error).message })) as express.ErrorRequestHandler,
    );
    const res = await request(app).get('/list').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'database down' });
    await expect(answer.done).rejects.toThrow('database down');
  });

  it('a read that fails midway cuts the answer short rather than ending it as if whole', async () => {
    async function* failing() {
      yield rows(0, 2000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('connection lost');
    }
    const app = appSending(async (encoding) => streamedJson(encoding, jsonArrayPieces(failing())));
    const res = await request(app)
      .get('/list')
      .set('Accept-Encoding', 'gzip')
      .then(
        (r) => ({ ok: true, text: r.text }),
        (err: Error) => ({ ok: false, text: err.message }),
      );
    expect(res.ok).toBe(false);
  });

  it('a reader that comes once the answer is whole gets it in one write; one that came before still gets every chunk', async () => {
    const pieces = rows(0, 40).map((r) => zlib.gzipSync(r));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = chunkedAnswer('gzip', async (out) => {
      for (const [i, piece] of pieces.entries()) {
        if (i === 20) await gate;
        out.chunk(piece);
        out.plain(1000);
      }
    });
    const sink = () => {
      const writes: Buffer[] = [];
      const out = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          writes.push(chunk);
          callback();
        },
      });
      return { out, writes };
    };
    const early = sink();
    const earlyDone = answer.pipeTo(early.out);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await answer.done;
    await earlyDone;
    expect(Buffer.concat(early.writes)).toEqual(Buffer.concat(pieces));
    expect(early.writes.length).toBe(40);
    const late = sink();
    await answer.pipeTo(late.out);
    expect(late.writes.length).toBe(1);
    expect(late.writes[0]).toEqual(Buffer.concat(pieces));
    expect(answer.bytes()).toBe(Buffer.concat(pieces).length);
  });
});
