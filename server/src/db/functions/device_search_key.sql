-- The 'Name or Serial' search text of a device (shared/src/rules/search-key.ts, applied to label and serial):
-- each without white space, lower case, joined by one space. A search key has no white space, so it cannot
-- match across the space: `device_search_key(label, serial) LIKE '%key%'` is "label or serial contains key".
-- devices_search_idx (migration 0022) indexes it with trigrams. A plain SQL function: inlined, so the index
-- on it serves the query.
CREATE OR REPLACE FUNCTION device_search_key(label text, serial text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT regexp_replace(lower(coalesce(label, '')), '\s+', '', 'g') || ' ' || regexp_replace(lower(serial), '\s+', '', 'g')
$fn$;
