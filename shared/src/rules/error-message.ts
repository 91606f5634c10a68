/**
 * The message a client shows for an error body (spec section 5, sign-up): the password field's first
 * message if there is one, else the first element of the body.
 */
export function firstErrorMessage(body: unknown): string {
  if (typeof body === 'string') return body;
  if (!body || typeof body !== 'object') return 'Something went wrong.';
  const record = body as Record<string, unknown>;
  const pick = (v: unknown): string | undefined =>
    typeof v === 'string' ? v : Array.isArray(v) && v.length ? pick(v[0]) : undefined;
  return pick(record.password) ?? pick(Object.values(record)[0]) ?? 'Something went wrong.';
}
