-- Keeps a device's stored list answer (device_list_answers, migration 0022) current after every insert and
-- update of its row (trigger devices_list_json). An update that leaves every key of the other tables' part as
-- it was (a check-in) reuses that part from the stored answer instead of reading the other tables again.
CREATE OR REPLACE FUNCTION devices_list_json_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  stored text;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.group_id IS NOT DISTINCT FROM OLD.group_id
     AND NEW.brand_id IS NOT DISTINCT FROM OLD.brand_id AND NEW.batch_id IS NOT DISTINCT FROM OLD.batch_id
     AND NEW.batch2_id IS NOT DISTINCT FROM OLD.batch2_id THEN
    SELECT a.list_json INTO stored FROM device_list_answers a WHERE a.device_id = NEW.id;
  END IF;
  INSERT INTO device_list_answers AS a (device_id, list_json)
  VALUES (NEW.id, CASE WHEN stored IS NULL THEN device_list_json(NEW) ELSE device_list_json(NEW, stored::json) END)
  ON CONFLICT (device_id) DO UPDATE SET list_json = EXCLUDED.list_json;
  -- The whole list's kept pieces of this site are read again (site_list_version_bump.sql).
  IF NEW.group_id IS NOT NULL THEN
    PERFORM site_list_version_bump(NEW.group_id);
  END IF;
  RETURN NULL;
END
$fn$;
