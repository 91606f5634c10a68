import zlib from 'node:zlib';
import type { Endpoint } from '@fleet/shared';
import type { RequestHandler, Response } from 'express';

export type AnswerMismatch = { method: string; path: string; status: number; issues: string[] };

let recorder: ((mismatch: AnswerMismatch) => void) | null = null;

/**
 * Test mode (tests/helpers/answer-check.setup.ts): every answer of a declared endpoint is parsed with the
 * schema its declaration gives for that status, and each mismatch is handed to `record`, so the test that
 * provoked it fails. Off in production (no recorder: one comparison a call).
 */
export function recordAnswerMismatches(
  record: ((mismatch: AnswerMismatch) => void) | null,
): ((mismatch: AnswerMismatch) => void) | null {
  const previous = recorder;
  recorder = record;
  return previous;
}

function decode(res: Response, body: unknown): unknown {
  const type = String(res.get('Content-Type') ?? '');
  if (!type.includes('json')) return undefined;
  let bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : null;
  if (!bytes) return undefined;
  const encoding = res.get('Content-Encoding');
  if (encoding === 'br') bytes = zlib.brotliDecompressSync(bytes);
  else if (encoding === 'gzip') bytes = zlib.gunzipSync(bytes);
  return JSON.parse(bytes.toString());
}

/** Wraps `res.send` (which `res.json` ends in) to check the answer against the declaration. */
export function answerCheck(declaration: Endpoint): RequestHandler {
  return (_req, res, next) => {
    const record = recorder;
    if (!record) return next();
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      // res.send(object) calls res.json, which calls res.send again with the text: check that one.
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        const schema = declaration.responses?.[res.statusCode]?.schema;
        if (schema) {
          let issues: string[];
          try {
            const result = schema.safeParse(decode(res, body));
            issues = result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`);
          } catch (error) {
            issues = [`not JSON: ${String(error)}`];
          }
          if (issues.length)
            record({ method: declaration.method.toUpperCase(), path: declaration.path, status: res.statusCode, issues });
        }
      }
      return send(body);
    };
    next();
  };
}
