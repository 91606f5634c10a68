-- The other tables' part of a device's stored list answer (device_list_answers): the site's county (location_id),
-- pending_flags, rental and market_partners. Brand and batch names are not in it: the stored answer holds null
-- there and the reads put the names in (device_list_named), so renaming a brand or a batch updates one row,
-- not every device's stored answer. A change in these tables computes the device's stored answer again
-- (refresh_device_list_json).
CREATE OR REPLACE FUNCTION device_list_foreign(d devices) RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN json_build_object(
    'location_id', (SELECT g.location_id FROM device_groups g WHERE g.id = d.group_id),
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
