import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { fieldErrors } from '@fleet/shared';

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
    log('unhandled error', err);
    res.status(500).json({ detail: 'Internal server error.' });
  };
}

/** PostgreSQL's unique_violation (23505), whether the driver error comes bare or wrapped by drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
