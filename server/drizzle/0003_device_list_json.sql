ALTER TABLE "devices" ADD COLUMN "list_json" text;--> statement-breakpoint
-- The list answer of one device: the fields of spec section 3 and market_partners. The API reads it
-- from devices.list_json; the single-device answer adds the panel details to it.
CREATE OR REPLACE FUNCTION device_list_json(d devices) RETURNS text LANGUAGE sql STABLE AS $fn$
  SELECT row_to_json(a)::text FROM (
    SELECT d.id, d.serial, d.label, d.number, d.address,
           CASE WHEN d.lat IS NULL OR d.lng IS NULL THEN NULL ELSE json_build_object('lat', d.lat, 'lng', d.lng) END AS location,
           (SELECT g.location_id FROM device_groups g WHERE g.id = d.group_id) AS location_id,
           d.group_id AS location_group,
           d.brand_id AS brand, (SELECT b.name FROM brands b WHERE b.id = d.brand_id) AS brand_name,
           d.location_event_type, d.left_pump_type, d.right_pump_type,
           d.batch_id AS batch, (SELECT x.batch_no FROM batches x WHERE x.id = d.batch_id) AS "batchNumber",
           (SELECT x.batch_no FROM batches x WHERE x.id = d.batch2_id) AS "batch2Number",
           d.right_pump_type <> 'Unspecified' AS batch2,
           d.level_sensor1, d.level_sensor2, d.volume_remain, d.volume_remain2,
           d.is_pause, d.is_activated, d.active, d.is_online, d.is_registration, d.is_warning, d.is_batch_warning,
           d.is_maintenance, d.warning_lists, d.is_enabled_vandalism, d.is_enabled_maintenance,
           (SELECT json_build_object('activation_changed', coalesce(bool_or(p.kind = 'activation'), false),
                                     'rental_changed', coalesce(bool_or(p.kind = 'rental'), false),
                                     'others', coalesce(bool_or(p.kind = 'other'), false))
              FROM pending_changes p WHERE p.device_id = d.id AND p.status = 'pending') AS pending_flags,
           d.poweroff_time, d.wakeup1_time, d.next_wakeup_time, d.core_ver, d.signal_quality,
           d.battery_warning, d.battery_volt, d.battery_percent,
           (SELECT json_build_object('start_date', r.start_date, 'end_date', r.end_date,
                                     'start_time', to_char(r.start_time, 'HH24:MI'), 'end_time', to_char(r.end_time, 'HH24:MI'),
                                     'pump_2_start_time', to_char(r.pump_2_start_time, 'HH24:MI'),
                                     'pump_2_end_time', to_char(r.pump_2_end_time, 'HH24:MI'))
              FROM rentals r WHERE r.device_id = d.id) AS rental,
           coalesce((SELECT json_agg(json_build_object('id', u.id, 'company', u.company) ORDER BY u.company)
                       FROM user_exclusive_devices x JOIN users u ON u.id = x.user_id WHERE x.device_id = d.id), '[]'::json) AS market_partners,
           d.simcard_phone_number AS "simcardPhoneNumber", d.imei, d.sim_serial_number AS "simSerialNumber"
  ) a
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION devices_list_json_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.list_json := device_list_json(NEW);
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER devices_list_json BEFORE INSERT OR UPDATE ON devices FOR EACH ROW EXECUTE FUNCTION devices_list_json_trg();
--> statement-breakpoint
-- Anything a device's list answer shows from another table refreshes that device (the update fires the trigger above).
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
--> statement-breakpoint
CREATE TRIGGER rentals_list_json AFTER INSERT OR UPDATE OR DELETE ON rentals FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER pending_changes_list_json AFTER INSERT OR UPDATE OF status, kind OR DELETE ON pending_changes FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER user_exclusive_devices_list_json AFTER INSERT OR DELETE ON user_exclusive_devices FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER brands_list_json AFTER UPDATE OF name ON brands FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER batches_list_json AFTER UPDATE OF batch_no ON batches FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER device_groups_list_json AFTER UPDATE OF location_id ON device_groups FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
CREATE TRIGGER users_list_json AFTER UPDATE OF company ON users FOR EACH ROW EXECUTE FUNCTION refresh_device_list_json();
--> statement-breakpoint
UPDATE devices SET list_json = NULL;
