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

/** The answer's text, unparsed (a large JSON answer parsed in slices: parseJsonLines). */
export async function httpText(path: string, options: HttpOptions = {}): Promise<string> {
  return (await send(path, options)).text();
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
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
