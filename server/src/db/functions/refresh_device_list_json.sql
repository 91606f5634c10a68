-- Anything a device's list answer shows from another table computes that device's stored answer again
-- (device_list_answers, migration 0022), in the same transaction as the change.
CREATE OR REPLACE FUNCTION refresh_device_list_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  ids integer[];
BEGIN
  r := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  IF TG_TABLE_NAME IN ('rentals', 'pending_changes', 'user_exclusive_devices') THEN
    ids := ARRAY[r.device_id];
  ELSIF TG_TABLE_NAME = 'brands' THEN
    ids := ARRAY(SELECT id FROM devices WHERE brand_id = r.id);
  ELSIF TG_TABLE_NAME = 'batches' THEN
    ids := ARRAY(SELECT id FROM devices WHERE batch_id = r.id OR batch2_id = r.id);
  ELSIF TG_TABLE_NAME = 'device_groups' THEN
    ids := ARRAY(SELECT id FROM devices WHERE group_id = r.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    ids := ARRAY(SELECT device_id FROM user_exclusive_devices WHERE user_id = r.id);
  END IF;
  INSERT INTO device_list_answers AS a (device_id, list_json)
  SELECT d.id, device_list_json(d) FROM devices d WHERE d.id = ANY (ids)
  ON CONFLICT (device_id) DO UPDATE SET list_json = EXCLUDED.list_json;
  -- The whole list's kept pieces of these sites are read again (site_list_version_bump.sql).
  PERFORM site_list_versions_bump(ARRAY(SELECT d.group_id FROM devices d WHERE d.id = ANY (ids)));
  RETURN NULL;
END
$fn$;
