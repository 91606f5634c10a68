/** Emails are sent trimmed and lowercased, as the server stores them. */
export const normalizeEmail = (value: string): string => value.trim().toLowerCase();
