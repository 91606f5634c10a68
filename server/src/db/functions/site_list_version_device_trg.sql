-- Site list versions (site_list_version_bump.sql says what they are for).
-- A device leaving a site (moved or deleted: its answer's write names only the new site, or none).
CREATE OR REPLACE FUNCTION site_list_version_device_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF OLD.group_id IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.group_id IS DISTINCT FROM OLD.group_id) THEN
    PERFORM site_list_version_bump(OLD.group_id);
  END IF;
  RETURN NULL;
END
$fn$;
