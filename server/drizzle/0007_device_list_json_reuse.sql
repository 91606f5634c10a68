-- The list answer in two parts: what the device row holds, and what other tables add (location_id,
-- brand_name, batch numbers, pending_flags, rental, market_partners). Every other table's change that the
-- list shows nulls devices.list_json (migration 0003's refresh triggers), so on an update that leaves
-- list_json, id, group_id, brand_id, batch_id and batch2_id as they were (a check-in: about 0.2 ms of the
-- recomputation were the seven sub-selects), the other tables' part is taken from the stored answer instead
-- of being read again. `->` on json answers a value's text as stored, so the answer is the same text.
CREATE OR REPLACE FUNCTION device_list_foreign(d devices) RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN json_build_object(
    'location_id', (SELECT g.location_id FROM device_groups g WHERE g.id = d.group_id),
    'brand_name', (SELECT b.name FROM brands b WHERE b.id = d.brand_id),
    'batchNumber', (SELECT x.batch_no FROM batches x WHERE x.id = d.batch_id),
    'batch2Number', (SELECT x.batch_no FROM batches x WHERE x.id = d.batch2_id),
    'pending_flags', (SELECT json_build_object('activation_changed', coalesce(bool_or(p.kind = 'activation'), false),
                                               'rental_changed', coalesce(bool_or(p.kind = 'rental'), false),
                                               'others', coalesce(bool_or(p.kind = 'other'), false))
                        FROM pending_changes p WHERE p.device_id = d.id AND p.status = 'pending'),
    'rental', (SELECT json_build_object('start_date', r.start_date, 'end_date', r.end_date,
                                        'start_time', to_char(r.start_time, 'HH24:MI'), 'end_time', to_char(r.end_time, 'HH24:MI'),
                                        'pump_2_start_time', to_char(r.pump_2_start_time, 'HH24:MI'),
                                        'pump_2_end_time', to_char(r.pump_2_end_time, 'HH24:MI'))
                 FROM rentals r WHERE r.device_id = d.id),
    'market_partners', coalesce((SELECT json_agg(json_build_object('id', u.id, 'company', u.company) ORDER BY u.company)
                                   FROM user_exclusive_devices x JOIN users u ON u.id = x.user_id WHERE x.device_id = d.id), '[]'::json));
END
$fn$;
--> statement-breakpoint
-- The list answer of d, with the other tables' part from f: device_list_foreign(d), or a stored list answer.
CREATE OR REPLACE FUNCTION device_list_json(d devices, f json) RETURNS text LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN (SELECT row_to_json(a)::text FROM (
    SELECT d.id, d.serial, d.label, d.number, d.address,
           CASE WHEN d.lat IS NULL OR d.lng IS NULL THEN NULL ELSE json_build_object('lat', d.lat, 'lng', d.lng) END AS location,
           f->'location_id' AS location_id,
           d.group_id AS location_group,
           d.brand_id AS brand, f->'brand_name' AS brand_name,
           d.location_event_type, d.left_pump_type, d.right_pump_type,
           d.batch_id AS batch, f->'batchNumber' AS "batchNumber",
           f->'batch2Number' AS "batch2Number",
           d.right_pump_type <> 'Unspecified' AS batch2,
           d.level_sensor1, d.level_sensor2, d.volume_remain, d.volume_remain2,
           d.is_pause, d.is_activated, d.active, d.is_online, d.is_registration, d.is_warning, d.is_batch_warning,
           d.is_maintenance, d.warning_lists, d.is_enabled_vandalism, d.is_enabled_maintenance,
           f->'pending_flags' AS pending_flags,
           d.poweroff_time, d.wakeup1_time, d.next_wakeup_time, d.core_ver, d.signal_quality,
           d.battery_warning, d.battery_volt, d.battery_percent,
           f->'rental' AS rental,
           f->'market_partners' AS market_partners,
           d.simcard_phone_number AS "simcardPhoneNumber", d.imei, d.sim_serial_number AS "simSerialNumber"
  ) a);
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION device_list_json(d devices) RETURNS text LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN device_list_json(d, device_list_foreign(d));
END
$fn$;
--> statement-breakpoint
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
