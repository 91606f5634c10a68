-- A device's list answer (spec section 3; deviceAnswerSchema in shared/src/schemas/device-answer.schema.ts
-- describes it) as stored in device_list_answers: the device row's fields and last_seen_at, with the other
-- tables' part (device_list_foreign). Brand and batch names are null here; reads put them in (device_list_named).
CREATE OR REPLACE FUNCTION device_list_json(d devices) RETURNS text LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN device_list_json(d, device_list_foreign(d));
END
$fn$;

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
           d.poweroff_time, d.wakeup1_time, d.next_wakeup_time, d.last_seen_at, d.core_ver, d.signal_quality,
           d.battery_warning, d.battery_volt, d.battery_percent,
           f->'rental' AS rental,
           f->'market_partners' AS market_partners,
           d.simcard_phone_number AS "simcardPhoneNumber", d.imei, d.sim_serial_number AS "simSerialNumber"
  ) a);
END
$fn$;
