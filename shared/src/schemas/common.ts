import { z } from 'zod';

// The message a client shows for an error body needs no zod: rules/error-message.ts, re-exported here.
export * from '../rules/error-message.ts';

/**
 * Field helpers with the messages the API answers with (Django REST style, which existing clients parse:
 * `{ field: ["message"] }`). Every string has a maximum length, so a 10 kB string is a clear 400.
 */
const typeError = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'This field is required.' : `Must be ${expected}.`;

/** PostgreSQL text cannot hold a NUL character: refused here, as a field error, before any write. */
export const NUL_MESSAGE = 'Text may not contain NUL characters (\\u0000).';
export const text = (max: number) =>
  z
    .string({ error: typeError('a string') })
    .trim()
    .max(max, { error: `Ensure this field has no more than ${max} characters.` })
    .refine((v) => !v.includes('\u0000'), { error: NUL_MESSAGE });

export const requiredText = (max: number) => text(max).min(1, { error: 'This field may not be blank.' });

export const email = () =>
  z
    .string({ error: typeError('a string') })
    .trim()
    .max(254, { error: 'Ensure this field has no more than 254 characters.' })
    .toLowerCase()
    .pipe(z.email({ error: 'Enter a valid email address.' }));

export const bool = () => z.boolean({ error: typeError('true or false') });

/** Validation errors as the `{ field: [messages] }` body of a 400 answer. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
