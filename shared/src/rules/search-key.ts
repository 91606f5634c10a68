/**
 * The 'Name or Serial' search rule (spec section 2): text as compared has no white space at all and is
 * lower case, so 'ab 12' finds serial 'AB12' and label 'Ab 12-X'. One rule for the dashboard's lists in
 * the browser and for GET /api/v1/devicePage's `q`, which the server applies in SQL as
 * `regexp_replace(lower(text), '\s+', '', 'g')` (server/src/devices/devices.repository.ts) and keeps
 * indexed (migration 0022).
 */
export const searchKey = (text: string) => text.replace(/\s+/g, '').toLowerCase();
