-- A site moved to another county takes its devices' counts from the old county's buckets to the new one's.
CREATE OR REPLACE FUNCTION device_counts_site_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  d record;
BEGIN
  IF NEW.location_id IS NOT DISTINCT FROM OLD.location_id THEN
    RETURN NULL;
  END IF;
  FOR d IN SELECT * FROM devices WHERE group_id = NEW.id LOOP
    PERFORM device_counts_add(d.brand_id, OLD.location_id, -1, d.is_online, d.is_warning, d.is_maintenance, d.is_pause,
      d.battery_percent, d.is_registration);
    PERFORM device_counts_add(d.brand_id, NEW.location_id, 1, d.is_online, d.is_warning, d.is_maintenance, d.is_pause,
      d.battery_percent, d.is_registration);
  END LOOP;
  RETURN NULL;
END
$fn$;
