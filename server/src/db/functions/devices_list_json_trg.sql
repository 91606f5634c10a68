-- Keeps devices.list_json current on every insert and update of a device row (trigger devices_list_json). An
-- update that leaves the stored answer and every key of the other tables' part as they were (a check-in)
-- reuses that part from the stored answer instead of reading the other tables again.
CREATE OR REPLACE FUNCTION devices_list_json_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.list_json IS NOT NULL AND NEW.list_json IS NOT DISTINCT FROM OLD.list_json
     AND NEW.id = OLD.id AND NEW.group_id IS NOT DISTINCT FROM OLD.group_id AND NEW.brand_id IS NOT DISTINCT FROM OLD.brand_id
     AND NEW.batch_id IS NOT DISTINCT FROM OLD.batch_id AND NEW.batch2_id IS NOT DISTINCT FROM OLD.batch2_id THEN
    NEW.list_json := device_list_json(NEW, OLD.list_json::json);
  ELSE
    NEW.list_json := device_list_json(NEW);
  END IF;
  RETURN NEW;
END
$fn$;
