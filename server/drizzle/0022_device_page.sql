-- Issue 46: the paged list's search served by an index.
-- device_search_key is the search rule in SQL (its current body: server/src/db/functions/device_search_key.sql).
CREATE OR REPLACE FUNCTION device_search_key(label text, serial text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT regexp_replace(lower(coalesce(label, '')), '\s+', '', 'g') || ' ' || regexp_replace(lower(serial), '\s+', '', 'g')
$fn$;
--> statement-breakpoint
-- A trigram GIN index answers "contains" (LIKE '%key%') for keys of three characters or more. pg_trgm ships
-- with PostgreSQL and PGlite (loaded by server/src/db/client.ts) and is a trusted extension (a database owner
-- may create it). It goes to the schema `public` when it is not installed yet: in a schema of its own test it
-- would leave with that schema. Where it cannot be created (no privilege), the search still answers, by
-- scanning: the index is an optimisation, not a rule.
DO $trgm$
DECLARE
  ext_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
  EXCEPTION WHEN insufficient_privilege OR undefined_file OR invalid_schema_name THEN
    RAISE NOTICE 'pg_trgm not available (%): the device search scans', SQLERRM;
  END;
  SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF ext_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS devices_search_idx ON devices USING gin (device_search_key(label, serial) %I.gin_trgm_ops) WHERE group_id IS NOT NULL', ext_schema);
  END IF;
END
$trgm$;
--> statement-breakpoint
-- Narrow device rows: the stored list answer (about 1.1 kB a device) moves out of `devices` into its own
-- table, so the scans of devices (counts, pins, sites, the search) read rows of about 300 bytes. The list
-- reads join it back; every answer is the same text as before.
CREATE TABLE device_list_answers (
  device_id integer PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
  list_json text NOT NULL
);
--> statement-breakpoint
INSERT INTO device_list_answers (device_id, list_json) SELECT d.id, coalesce(d.list_json, device_list_json(d)) FROM devices d;
--> statement-breakpoint
DROP TRIGGER IF EXISTS devices_list_json ON devices;
--> statement-breakpoint
-- The new bodies of devices_list_json_trg (upserts the device's answer) and refresh_device_list_json (computes
-- the answers of the devices a change elsewhere shows in) are their files in server/src/db/functions, which the
-- migrator applies right after the migrations, before anything writes.
CREATE TRIGGER devices_list_json AFTER INSERT OR UPDATE ON devices FOR EACH ROW EXECUTE FUNCTION devices_list_json_trg();
--> statement-breakpoint
ALTER TABLE devices DROP COLUMN list_json;
