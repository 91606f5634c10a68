-- Site list versions (site_list_version_bump.sql says what they are for).
-- A brand or batch renamed: the stored answers hold no names (migration 0013 made renames one row's write;
-- reads put the names in), so the sites of the brand's or batch's devices move here instead.
CREATE OR REPLACE FUNCTION site_list_version_names_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'brands' THEN
    IF NEW.name IS DISTINCT FROM OLD.name THEN
      PERFORM site_list_versions_bump(ARRAY(SELECT d.group_id FROM devices d WHERE d.brand_id = NEW.id));
    END IF;
  ELSIF NEW.batch_no IS DISTINCT FROM OLD.batch_no THEN
    PERFORM site_list_versions_bump(ARRAY(SELECT d.group_id FROM devices d WHERE d.batch_id = NEW.id OR d.batch2_id = NEW.id));
  END IF;
  RETURN NULL;
END
$fn$;
