import { firstErrorMessage } from '@fleet/shared';
import { HttpError } from './http';

/** The plain sentence for a failure the server did not explain. */
export const GENERIC_FAILURE = 'Something went wrong.';

/**
 * The server's own words for a failed call: why it could not be reached, its `detail`, or a 400's first
 * message. Null when it said nothing useful, so a popup whose title already says it failed can add nothing.
 */
export function serverReason(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  if (error.status === 0) return error.message;
  if (error.detail) return error.detail;
  // firstErrorMessage answers the plain sentence for a 400 without messages: that says nothing more.
  if (error.status === 400) {
    const message = firstErrorMessage(error.body);
    return message === GENERIC_FAILURE ? null : message;
  }
  return null;
}

/**
 * A failure as one line of text, never empty: the server's words, else the message of an Error the client
 * raised itself (a range refused before any call), else the plain sentence with the status code.
 */
export function failureMessage(error: unknown): string {
  const reason = serverReason(error);
  if (reason) return reason;
  if (error instanceof HttpError) return `${GENERIC_FAILURE} (HTTP ${error.status})`;
  return error instanceof Error && error.message ? error.message : GENERIC_FAILURE;
}

/** The field messages of a 400 answer (`{ name: ['please create new name'] }`), the first one per field. */
export function fieldMessages(error: unknown): Record<string, string> {
  if (!(error instanceof HttpError) || error.status !== 400 || !error.body || typeof error.body !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value.find((m) => typeof m === 'string') : typeof value === 'string' ? value : undefined;
    if (typeof first === 'string' && key !== 'detail') out[key] = first;
  }
  return out;
}
