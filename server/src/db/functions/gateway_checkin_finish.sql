-- The second of a device check-in's two calls (gateway_checkin_store is the first; server/src/gateway/
-- gateway.service.ts): what the server decided with the rules, applied. p:
--    { id, t, next, warnings, isWarning, isBatchWarning, batteryWarning, dc1, dc2, ml1, ml2 (what was inserted
--      per pump), coreVer?, signal?, s1?, v1?, s2?, v2?, bp?, bv?, fault?, lat?, lng?, locAt?, consumed: [[batch, ml]] }
-- An absent field keeps the column. ONE update of the device row, so the devices_list_json trigger fires
-- once, after the pending changes were settled (the list answer shows the settled flags). What stays pending
-- is expected at the next wake-up. Batch consumption is appended to batch_consumption (folded into the
-- batches by batch_consumption_fold) instead of updating the shared batch rows, whose one lock would hold
-- every device of a batch behind the slowest commit.
CREATE OR REPLACE FUNCTION gateway_checkin_finish(p jsonb) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_id int := (p->>'id')::int;
BEGIN
  UPDATE devices SET
    last_seen_at = (p->>'t')::timestamptz, is_online = true, next_wakeup_time = (p->>'next')::timestamptz,
    warning_lists = p->'warnings', is_warning = (p->>'isWarning')::boolean,
    is_batch_warning = (p->>'isBatchWarning')::boolean, battery_warning = (p->>'batteryWarning')::boolean,
    dispense_count1 = dispense_count1 + (p->>'dc1')::bigint, dispense_count2 = dispense_count2 + (p->>'dc2')::bigint,
    dispensed_ml1 = dispensed_ml1 + (p->>'ml1')::float8, dispensed_ml2 = dispensed_ml2 + (p->>'ml2')::float8,
    core_ver = coalesce(p->>'coreVer', core_ver),
    signal_quality = coalesce((p->>'signal')::smallint, signal_quality),
    level_sensor1 = coalesce((p->>'s1')::boolean, level_sensor1),
    volume_remain = CASE WHEN p ? 's1' THEN (p->>'v1')::float8 ELSE volume_remain END,
    level_sensor2 = coalesce((p->>'s2')::boolean, level_sensor2),
    volume_remain2 = CASE WHEN p ? 's2' THEN (p->>'v2')::float8 ELSE volume_remain2 END,
    battery_percent = CASE WHEN p ? 'bp' THEN (p->>'bp')::real ELSE battery_percent END,
    battery_volt = CASE WHEN p ? 'bp' THEN (p->>'bv')::real ELSE battery_volt END,
    pump_sensor_fault = coalesce((p->>'fault')::boolean, pump_sensor_fault),
    reported_lat = CASE WHEN p ? 'locAt' THEN (p->>'lat')::float8 ELSE reported_lat END,
    reported_lng = CASE WHEN p ? 'locAt' THEN (p->>'lng')::float8 ELSE reported_lng END,
    reported_location_at = CASE WHEN p ? 'locAt' THEN (p->>'locAt')::timestamptz ELSE reported_location_at END
  WHERE id = v_id;
  UPDATE pending_changes SET expected_at = (p->>'next')::timestamptz WHERE device_id = v_id AND status = 'pending';
  -- Batch consumption is appended, not applied: no shared row is locked (batch_consumption_fold applies it).
  -- Only batches that still exist (one deleted since the store read the device is not charged).
  INSERT INTO batch_consumption (batch_id, litres)
    SELECT b.id, v.ml / 1000
    FROM (SELECT (e->>0)::int AS id, (e->>1)::float8 AS ml FROM jsonb_array_elements(p->'consumed') e) v
    JOIN batches b ON b.id = v.id;
END
$fn$;
