import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { fieldErrors, NUL_MESSAGE } from '@fleet/shared';

/**
 * An answer other than 2xx. Bodies follow Django REST conventions, which the spec's client parses:
 * `{ detail: "..." }` for a general error, `{ field: ["..."] }` for validation errors.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
  static badRequest(detail: string) {
    return new ApiError(400, { detail });
  }
  static field(field: string, message: string) {
    return new ApiError(400, { [field]: [message] });
  }
  static notFound(detail = 'Not found.') {
    return new ApiError(404, { detail });
  }
  static forbidden(detail = 'You do not have permission to perform this action.') {
    return new ApiError(403, { detail });
  }
  static unauthorized(detail = 'Authentication credentials were not provided.') {
    return new ApiError(401, { detail }, { 'WWW-Authenticate': 'Token' });
  }
}

/** Parses input with a shared schema, answering 400 `{ field: [messages] }` when it does not fit. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, fieldErrors(result.error));
  return result.data;
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not found.' });
};

export function errorHandler(log: (msg: string, err: unknown) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (err instanceof ApiError) {
      res.set(err.headers).status(err.status).json(err.body);
      return;
    }
    const e = err as { type?: string; status?: number; expose?: boolean };
    if (e?.type === 'entity.parse.failed') {
      res.status(400).json({ detail: 'Malformed JSON in request body.' });
      return;
    }
    if (e?.type === 'entity.too.large') {
      res.status(413).json({ detail: 'Request body is too large.' });
      return;
    }
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
      res.status(e.status).json({ detail: (err as Error).message });
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // The database is down or restarting: a clear, retryable answer rather than a 500 (readyz says the same).
      log('database unavailable', err);
      res.set('Retry-After', '5').status(503).json({ detail: 'The service is temporarily unavailable. Try again shortly.' });
      return;
    }
    if (isUnstorableText(err)) {
      // The statement failed, so its transaction rolled back: nothing of the request was saved.
      res.status(400).json({ detail: NUL_MESSAGE });
      return;
    }
    log('unhandled error', err);
    res.status(500).json({ detail: 'Internal server error.' });
  };
}

const pgCode = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code ?? e?.cause?.code;
};

/** PostgreSQL's unique_violation (23505), whether the driver error comes bare or wrapped by drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  return pgCode(err) === '23505';
}

/** The mark `isDatabaseUnavailable` looks for: a database error raised before the session began (db/client.ts). */
const CONNECTING = 'duringConnect';

export function markConnectError<E>(err: E): E {
  if (err && typeof err === 'object')
    Object.defineProperty(err, CONNECTING, { value: true, enumerable: false, configurable: true });
  return err;
}

/**
 * The database cannot be reached or cannot take a session now: any error raised while a connection was
 * being made (db/client.ts marks them: 55000 'database is not currently accepting connections', 57P03
 * starting up, 53300 too many connections, an authentication failure...), node's socket errors, SQLSTATE
 * class 08 connection exceptions and 57P01-57P05 (shut down, crashed, cannot connect now, database dropped,
 * idle session ended) whenever they come, a pool timing out a connection, or the embedded PGlite closed.
 * Such a request may succeed when retried; other errors at query time (55000 among them) stay a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: string; message?: string; cause?: unknown; [CONNECTING]?: boolean } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (e[CONNECTING]) return true;
    const code = e.code ?? '';
    if (
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '53300'].includes(code) ||
      code.startsWith('08') ||
      /^57P0[1-5]$/.test(code)
    )
      return true;
    if (code === '55000' && /not currently accepting connections/i.test(e.message ?? '')) return true;
    if (
      /Connection terminated|timeout exceeded when trying to connect|PGlite is closed|Client has encountered a connection error/i.test(
        e.message ?? '',
      )
    )
      return true;
  }
  return false;
}

/**
 * Text PostgreSQL cannot store that a schema let through (the shared `text()` refuses it first): a NUL byte in text (22021) or a \u0000 escape
 * in jsonb (22P05). Every write path gets the same clear 400 instead of a 500.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = pgCode(err);
  return code === '22021' || code === '22P05';
}
