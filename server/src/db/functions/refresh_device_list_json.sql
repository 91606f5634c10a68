-- Anything a device's list answer shows from another table refreshes that device (devices_list_json_trg computes it again).
CREATE OR REPLACE FUNCTION refresh_device_list_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
BEGIN
  r := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  IF TG_TABLE_NAME IN ('rentals', 'pending_changes', 'user_exclusive_devices') THEN
    UPDATE devices SET list_json = NULL WHERE id = r.device_id;
  ELSIF TG_TABLE_NAME = 'brands' THEN
    UPDATE devices SET list_json = NULL WHERE brand_id = r.id;
  ELSIF TG_TABLE_NAME = 'batches' THEN
    UPDATE devices SET list_json = NULL WHERE batch_id = r.id OR batch2_id = r.id;
  ELSIF TG_TABLE_NAME = 'device_groups' THEN
    UPDATE devices SET list_json = NULL WHERE group_id = r.id;
  ELSIF TG_TABLE_NAME = 'users' THEN
    UPDATE devices SET list_json = NULL WHERE id IN (SELECT device_id FROM user_exclusive_devices WHERE user_id = r.id);
  END IF;
  RETURN NULL;
END
$fn$;
