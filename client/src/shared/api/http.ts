import type { BodyAsk, BodyRelayMessage } from './body-relay';
import { readToken } from './token';

/** A non-2xx answer (status 0 when the server could not be reached), with its parsed body. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(HttpError.describe(status, body));
  }

  /** The `detail` field of a `{ detail }` body, when there is one. */
  get detail(): string | undefined {
    const detail = (this.body as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' ? detail : undefined;
  }

  private static describe(status: number, body: unknown): string {
    const detail = (body as { detail?: unknown } | null)?.detail;
    if (typeof detail === 'string') return `HTTP ${status}: ${detail}`;
    return status === 0 ? 'The server could not be reached.' : `HTTP ${status}`;
  }
}

export type HttpOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data (file uploads); the browser sets the boundary header. */
  form?: FormData;
  signal?: AbortSignal;
  /** A credential other than the session's (the /maintenance page's maintenance credential). */
  token?: string;
};

/**
 * fetch for the portal API: same origin, `Authorization: Token <key>` when the token cookie is set,
 * JSON in and out. Resolves with the parsed body of a 2xx answer, throws HttpError otherwise.
 */
export async function http<T>(path: string, options: HttpOptions = {}): Promise<T> {
  return readBody(await send(path, options)) as Promise<T>;
}

/**
 * The answer's body as it arrives, never joined into one string (a large JSON answer parsed in slices while
 * the rest is still coming: eachJsonLine). A GET is read on a worker's thread where the browser has workers
 * (body-relay.ts says why), else here. Throws HttpError for a non-2xx answer, as `http` does; a body cut off
 * midway errors the stream with HttpError (status 0).
 */
export async function httpBody(path: string, options: HttpOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const plainGet = (options.method ?? 'GET') === 'GET' && options.json === undefined && !options.form;
  if (typeof Worker === 'function' && plainGet) return bodyOffThread(path, options);
  return bodyHere(path, options);
}

async function bodyHere(path: string, options: HttpOptions): Promise<ReadableStream<Uint8Array>> {
  const { body } = await send(path, options);
  // No body (a 204): an empty stream, which the caller finds is no JSON.
  return body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}

/**
 * The worker of body.worker.ts, one a read, ended when the body is read, fails or is no longer wanted. A
 * worker that cannot start (a script the browser refused) leaves the read to the page.
 */
function bodyOffThread(path: string, options: HttpOptions): Promise<ReadableStream<Uint8Array>> {
  const worker = new Worker(new URL('./body.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    let body: ReadableStreamDefaultController<Uint8Array> | null = null;
    const stop = (error?: unknown) => {
      worker.terminate();
      // Messages the worker sent before it was ended are not read: the stream is closed or given up.
      worker.onmessage = null;
      worker.onerror = null;
      options.signal?.removeEventListener('abort', aborted);
      if (error === undefined) return;
      if (body) body.error(error);
      else reject(error);
    };
    const aborted = () => stop(options.signal?.reason ?? new DOMException('The read was aborted.', 'AbortError'));
    if (options.signal?.aborted) return aborted();
    options.signal?.addEventListener('abort', aborted);
    worker.onerror = () => {
      if (body) return stop(new HttpError(0, null));
      stop();
      bodyHere(path, options).then(resolve, reject);
    };
    worker.onmessage = ({ data }: MessageEvent<BodyRelayMessage>) => {
      if (data.kind === 'head')
        resolve(
          new ReadableStream<Uint8Array>({
            start: (controller) => void (body = controller),
            // The reader gave up (a slice that did not parse): nothing more is read.
            cancel: () => stop(),
          }),
        );
      else if (data.kind === 'chunk') body?.enqueue(data.bytes);
      else if (data.kind === 'end') {
        body?.close();
        stop();
      } else stop(new HttpError(data.status, data.status === 0 ? null : parsedBody(data.contentType, data.text)));
    };
    const ask: BodyAsk = { path, token: options.token ?? readToken() };
    worker.postMessage(ask);
  });
}

/** A binary answer (a PDF, a spreadsheet) of the same call: HttpError with the server's reason otherwise. */
export async function httpBlob(path: string, options: HttpOptions = {}): Promise<Blob> {
  return (await send(path, options)).blob();
}

/** Sends the call; answers a 2xx response unread, throws HttpError (with the parsed body) otherwise. */
async function send(path: string, options: HttpOptions): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = options.token ?? readToken();
  if (token) headers.set('Authorization', `Token ${token}`);
  if (options.json !== undefined) headers.set('Content-Type', 'application/json');

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.form ?? (options.json === undefined ? null : JSON.stringify(options.json)),
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new HttpError(0, null);
  }

  if (!response.ok) throw new HttpError(response.status, await readBody(response));
  return response;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  return parsedBody(response.headers.get('content-type') ?? '', await response.text().catch(() => ''));
}

/** An answer's body as `http` answers it and HttpError carries it: parsed when JSON, its text otherwise, none when empty. */
function parsedBody(contentType: string, text: string): unknown {
  if (!text) return undefined;
  if (contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
