import { firstErrorMessage } from '@fleet/shared';
import { HttpError } from '../../../shared/api';

export const GENERIC_FAILURE = 'Something went wrong.';

/** What the server said about a failed call: a 400's first message, its detail, or a plain sentence. */
export function failureMessage(error: unknown): string {
  if (!(error instanceof HttpError)) return error instanceof Error && error.message ? error.message : GENERIC_FAILURE;
  if (error.status === 0) return error.message;
  if (error.detail) return error.detail;
  if (error.status === 400) return firstErrorMessage(error.body);
  return `${GENERIC_FAILURE} (HTTP ${error.status})`;
}

/** The messages of one field of a 400 body ({ name: ['please create new name'] }). */
export function fieldMessage(error: unknown, field: string): string | null {
  if (!(error instanceof HttpError) || error.status !== 400) return null;
  const value = (error.body as Record<string, unknown> | null)?.[field];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : null;
}
