-- Same answer as migration 0003's SQL function, in PL/pgSQL: PostgreSQL re-plans a SQL function called from
-- a trigger on every call, while PL/pgSQL caches the plans of its queries per connection. Every device
-- update (each check-in) runs this once.
CREATE OR REPLACE FUNCTION device_list_json(d devices) RETURNS text LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN (SELECT row_to_json(a)::text FROM (
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
  ) a);
END
$fn$;
