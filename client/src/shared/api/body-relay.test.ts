import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachJsonLine } from '../lib/json-lines';
import { relayBody, type BodyAsk, type BodyRelayMessage } from './body-relay';
import { HttpError, httpBody } from './http';

/**
 * A dedicated worker as the browser runs body.worker.ts, on this thread: each message goes through a
 * structured clone (transferred bytes included), as between the page and a worker.
 */
class RelayWorker {
  static made: RelayWorker[] = [];
  static asked: BodyAsk[] = [];
  onmessage: ((event: MessageEvent<BodyRelayMessage>) => void) | null = null;
  onerror: (() => void) | null = null;
  terminated = false;
  constructor() {
    RelayWorker.made.push(this);
  }
  postMessage(ask: BodyAsk) {
    RelayWorker.asked.push(ask);
    void relayBody(ask, (message, transfer) => {
      const copy = structuredClone(message, { transfer: transfer ?? [] });
      if (!this.terminated) setTimeout(() => this.onmessage?.({ data: copy } as MessageEvent<BodyRelayMessage>));
    });
  }
  terminate() {
    this.terminated = true;
  }
}

/** A fetch that answers `chunks` as the body (cut off after them when `cut`), with a status. */
function answering(chunks: string[], init: ResponseInit = { status: 200 }, cut = false) {
  const encoder = new TextEncoder();
  return vi.fn(async () => {
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < chunks.length) controller.enqueue(encoder.encode(chunks[at++]));
        else if (cut) controller.error(new TypeError('network error'));
        else controller.close();
      },
    });
    return new Response(body, init);
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  RelayWorker.made = [];
  RelayWorker.asked = [];
});

describe('httpBody read on a worker (body-relay)', () => {
  it('hands the body over as it arrives, in order, with the session token, and ends the worker once read', async () => {
    vi.stubGlobal('Worker', RelayWorker);
    const fetch = answering(['[["S1",1],\n', '["S2",', '2],\n["Ü",3]]']);
    vi.stubGlobal('fetch', fetch);
    const seen: unknown[] = [];
    await eachJsonLine(await httpBody('/api/v1/devicePins', { token: 'abc' }), (t) => seen.push(t), 1);
    expect(seen).toEqual([
      ['S1', 1],
      ['S2', 2],
      ['Ü', 3],
    ]);
    expect(RelayWorker.asked).toEqual([{ path: '/api/v1/devicePins', token: 'abc' }]);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get('Authorization')).toBe('Token abc');
    expect(RelayWorker.made).toHaveLength(1);
    expect(RelayWorker.made[0]!.terminated).toBe(true);
  });

  it('throws HttpError with the server reason for a non-2xx answer, and status 0 when the server cannot be reached', async () => {
    vi.stubGlobal('Worker', RelayWorker);
    vi.stubGlobal(
      'fetch',
      answering(['{"detail":"Invalid token."}'], { status: 401, headers: { 'content-type': 'application/json' } }),
    );
    const refused = await httpBody('/api/v1/devicePins', { token: 't' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(401);
    expect((refused as HttpError).detail).toBe('Invalid token.');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(httpBody('/api/v1/devicePins', { token: 't' })).rejects.toMatchObject({
      status: 0,
      message: 'The server could not be reached.',
    });
    expect(RelayWorker.made.every((worker) => worker.terminated)).toBe(true);
  });

  it('errors the stream when the answer is cut off midway, and stops the worker when the reader gives up', async () => {
    vi.stubGlobal('Worker', RelayWorker);
    vi.stubGlobal('fetch', answering(['[1,\n2,\n'], { status: 200 }, true));
    const seen: unknown[] = [];
    await expect(
      eachJsonLine(await httpBody('/api/v1/devicePins', { token: 't' }), (t) => seen.push(t), 1),
    ).rejects.toMatchObject({ status: 0 });
    expect(seen).toEqual([1, 2]);

    vi.stubGlobal('fetch', answering(['[1,\n{oops,\n', '3,\n4]']));
    await expect(eachJsonLine(await httpBody('/api/v1/devicePins', { token: 't' }), () => undefined, 1)).rejects.toThrow(
      SyntaxError,
    );
    expect(RelayWorker.made.at(-1)!.terminated).toBe(true);
    // What the worker had sent before it was ended still arrives, and is not read: nothing is put in the
    // stream the reader gave up (that throws, uncaught, on a closed stream).
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('reads on the page where there are no workers, and for a call that is not a plain GET', async () => {
    vi.stubGlobal('fetch', answering(['[7,\n8]']));
    const seen: unknown[] = [];
    await eachJsonLine(await httpBody('/api/v1/devicePins', { token: 't' }), (t) => seen.push(t));
    expect(seen).toEqual([7, 8]);
    vi.stubGlobal('Worker', RelayWorker);
    await eachJsonLine(await httpBody('/api/v1/x', { method: 'POST', json: {}, token: 't' }), (t) => seen.push(t));
    expect(seen).toEqual([7, 8, 7, 8]);
    expect(RelayWorker.made).toHaveLength(0);
  });
});
