-- Keeps device_counts (migration 0023) in step with every change of a device row: the row's old contribution
-- (when it was placed) leaves its (brand, county) bucket and its new one (when placed) joins its bucket, in
-- the transaction of the change. A check-in that changes none of the counted fields writes nothing here, so
-- the buckets are not a hot row for the check-in path.
CREATE OR REPLACE FUNCTION device_counts_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.group_id IS NOT DISTINCT FROM OLD.group_id AND NEW.brand_id IS NOT DISTINCT FROM OLD.brand_id
     AND NEW.is_online = OLD.is_online AND NEW.is_warning = OLD.is_warning AND NEW.is_maintenance = OLD.is_maintenance
     AND NEW.is_pause = OLD.is_pause AND NEW.is_registration = OLD.is_registration
     AND coalesce(NEW.battery_percent < 50, false) = coalesce(OLD.battery_percent < 50, false) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.group_id IS NOT NULL THEN
    PERFORM device_counts_add(OLD.brand_id, (SELECT g.location_id FROM device_groups g WHERE g.id = OLD.group_id), -1,
      OLD.is_online, OLD.is_warning, OLD.is_maintenance, OLD.is_pause, OLD.battery_percent, OLD.is_registration);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.group_id IS NOT NULL THEN
    PERFORM device_counts_add(NEW.brand_id, (SELECT g.location_id FROM device_groups g WHERE g.id = NEW.group_id), 1,
      NEW.is_online, NEW.is_warning, NEW.is_maintenance, NEW.is_pause, NEW.battery_percent, NEW.is_registration);
  END IF;
  RETURN NULL;
END
$fn$;
