-- Renaming a brand or a batch in milliseconds, without touching device rows. Until now the stored list
-- answer (devices.list_json) held brand_name, batchNumber and batch2Number, so a rename nulled list_json of
-- every device of that brand or batch (brands_list_json / batches_list_json, migration 0003): thousands of
-- device rows rewritten and locked against check-ins for the length of the rename (300-530 ms at 10,000).
-- Now the stored answer holds null in those three places and the reads put the names in from a join
-- (device_list_named below): the same text as before, byte for byte, and a rename updates one row.
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
--> statement-breakpoint
-- The stored answer j with the names put in. Each pattern can only match its key: inside a JSON string
-- every '"' is escaped, so '"brand_name":null' cannot occur within a label or an address. to_json gives
-- the same escaping row_to_json gave the names before. A plain SQL function: inlined into the query.
CREATE OR REPLACE FUNCTION device_list_named(j text, brand_name text, batch_no text, batch2_no text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT replace(replace(replace(j,
    '"brand_name":null', '"brand_name":' || coalesce(to_json(brand_name)::text, 'null')),
    '"batchNumber":null', '"batchNumber":' || coalesce(to_json(batch_no)::text, 'null')),
    '"batch2Number":null', '"batch2Number":' || coalesce(to_json(batch2_no)::text, 'null'))
$fn$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS brands_list_json ON brands;
--> statement-breakpoint
DROP TRIGGER IF EXISTS batches_list_json ON batches;
--> statement-breakpoint
-- The list is read in this order (site, number, serial): an index scan instead of sorting 11 MB of
-- list_json on disk for every call.
CREATE INDEX IF NOT EXISTS devices_list_order_idx ON devices (group_id, number, serial) WHERE group_id IS NOT NULL;
--> statement-breakpoint
UPDATE devices SET list_json = device_list_json(devices) WHERE list_json IS NOT NULL;
