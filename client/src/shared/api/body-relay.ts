/**
 * A large API answer read on a worker's thread and handed to the page as it arrives (the pin feed, 7.47 MB at
 * 100,000 devices). Read on the page, the body's arrival cost the page's main thread a task of its own even
 * when the page only streamed it: 433 ms under a 4x CPU slowdown in a Chrome trace of the map page
 * (`ResponseBodyLoader::DidFinishLoadingBody`, `TextResourceDecoder::Decode`: the copy of the body that
 * Chromium keeps for DevTools, and so for Lighthouse, whose score is this page's budget; tests/perf/map-trace.ts
 * with CATEGORIES=blink). A worker's fetch is loaded on the worker's thread; its chunks reach the page as
 * transferred bytes, a message each, which eachJsonLine parses a slice a task.
 *
 * This module is what the worker runs (body.worker.ts) and the messages both sides share. It imports nothing,
 * so the worker's chunk holds only this.
 */

/** What the page asks: one GET of a portal call, with the session's token. */
export type BodyAsk = { path: string; token?: string };

/** The worker's answers, in order: `head` (a 2xx), `chunk`s, then `end`; or `failed`, at any point. */
export type BodyRelayMessage =
  | { kind: 'head' }
  | { kind: 'chunk'; bytes: Uint8Array }
  | { kind: 'end' }
  /** status 0: the server could not be reached, or the answer was cut off. */
  | { kind: 'failed'; status: number; contentType: string; text: string };

type Post = (message: BodyRelayMessage, transfer?: Transferable[]) => void;

export async function relayBody(ask: BodyAsk, post: Post): Promise<void> {
  const headers = new Headers({ Accept: 'application/json' });
  if (ask.token) headers.set('Authorization', `Token ${ask.token}`);
  let response: Response;
  try {
    response = await fetch(ask.path, { headers, credentials: 'same-origin' });
  } catch {
    return post({ kind: 'failed', status: 0, contentType: '', text: '' });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    return post({ kind: 'failed', status: response.status, contentType: response.headers.get('content-type') ?? '', text });
  }
  post({ kind: 'head' });
  if (!response.body) return post({ kind: 'end' });
  const reader = response.body.getReader();
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      // Moved, not copied: a chunk that is a view of a larger buffer is copied out first.
      const whole = part.value.byteOffset === 0 && part.value.byteLength === part.value.buffer.byteLength;
      const bytes = whole ? part.value : part.value.slice();
      post({ kind: 'chunk', bytes }, [bytes.buffer]);
    }
  } catch {
    return post({ kind: 'failed', status: 0, contentType: '', text: '' });
  }
  post({ kind: 'end' });
}
