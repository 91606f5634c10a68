-- Keeps the aggregates of migration 0025 in step with every change of a device row, in its transaction:
-- - site_counts: the row's contribution moved: `o`, the row as it was (NULL for an insert), leaves its
--   (site, brand) bucket and `n`, the row as it is (NULL for a delete), joins its own; an unplaced row counts
--   nowhere. When both are in the same bucket (a check-in) it is one upsert of the difference. The counts are
--   integers, exact; the usage sums are float8 like the columns they add up, so they may differ from a fresh
--   scan's sum in the last bits (a scan's own order varies with its plan; the overview rounds them to 2
--   decimals of fl.oz.), and a bucket left without devices is exactly 0. Low battery is below 50 percent,
--   shared's LOW_BATTERY_PERCENT;
-- - site_members: the sites' device lists, brands, batches and partners, computed again for the old and the
--   new bucket when a device joins or leaves one or changes what they show (site_members_refresh);
-- - device_pins: the device's pin tuple (GET /api/v1/devicePins), kept while the device is placed.
-- The pin bits are shared's PIN_BITS (shared/src/rules/device-pin.ts), the tuple server/src/devices/pin-sql.ts's
-- PIN_TUPLE_SQL: tests/integration/kept-aggregates.test.ts compares every kept pin with a fresh PIN_TUPLE_SQL.
-- A check-in that changes none of these fields writes nothing here.
CREATE OR REPLACE FUNCTION site_aggregates_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  o devices := CASE WHEN TG_OP <> 'INSERT' THEN OLD END;
  n devices := CASE WHEN TG_OP <> 'DELETE' THEN NEW END;
  k record;
BEGIN
  IF (o.group_id, o.brand_id, o.is_online, o.is_warning, o.is_maintenance, o.is_pause, o.is_registration,
      coalesce(o.battery_percent < 50, false), o.left_pump_type, o.right_pump_type, o.dispensed_ml1, o.dispensed_ml2,
      o.dispense_count1, o.dispense_count2)
     IS DISTINCT FROM
     (n.group_id, n.brand_id, n.is_online, n.is_warning, n.is_maintenance, n.is_pause, n.is_registration,
      coalesce(n.battery_percent < 50, false), n.left_pump_type, n.right_pump_type, n.dispensed_ml1, n.dispensed_ml2,
      n.dispense_count1, n.dispense_count2) THEN
    -- Written here, not in a LANGUAGE sql function, so its plan is kept per connection like the rest.
    INSERT INTO site_counts AS c (group_id, brand_id, total, online, warning, maintenance, pause, low_battery, synced,
                                  sunscreen_ml, sanitizer_ml, sunscreen_count, sanitizer_count)
    SELECT (v.d).group_id, coalesce((v.d).brand_id, 0), sum(v.s), sum(v.s * (v.d).is_online::int),
           sum(v.s * (v.d).is_warning::int), sum(v.s * (v.d).is_maintenance::int), sum(v.s * (v.d).is_pause::int),
           sum(v.s * (coalesce((v.d).battery_percent < 50, false))::int), sum(v.s * (v.d).is_registration::int),
           sum(v.s * ((CASE WHEN (v.d).left_pump_type = 'Sunscreen' THEN (v.d).dispensed_ml1 ELSE 0 END)
                    + (CASE WHEN (v.d).right_pump_type = 'Sunscreen' THEN (v.d).dispensed_ml2 ELSE 0 END))),
           sum(v.s * ((CASE WHEN (v.d).left_pump_type = 'Sanitizer' THEN (v.d).dispensed_ml1 ELSE 0 END)
                    + (CASE WHEN (v.d).right_pump_type = 'Sanitizer' THEN (v.d).dispensed_ml2 ELSE 0 END))),
           sum(v.s * ((CASE WHEN (v.d).left_pump_type = 'Sunscreen' THEN (v.d).dispense_count1 ELSE 0 END)
                    + (CASE WHEN (v.d).right_pump_type = 'Sunscreen' THEN (v.d).dispense_count2 ELSE 0 END))),
           sum(v.s * ((CASE WHEN (v.d).left_pump_type = 'Sanitizer' THEN (v.d).dispense_count1 ELSE 0 END)
                    + (CASE WHEN (v.d).right_pump_type = 'Sanitizer' THEN (v.d).dispense_count2 ELSE 0 END)))
    FROM (VALUES (o, -1), (n, 1)) AS v(d, s)
    WHERE (v.d).group_id IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (group_id, brand_id) DO UPDATE SET
      total = c.total + EXCLUDED.total, online = c.online + EXCLUDED.online, warning = c.warning + EXCLUDED.warning,
      maintenance = c.maintenance + EXCLUDED.maintenance, pause = c.pause + EXCLUDED.pause,
      low_battery = c.low_battery + EXCLUDED.low_battery, synced = c.synced + EXCLUDED.synced,
      sunscreen_ml = CASE WHEN c.total + EXCLUDED.total = 0 THEN 0 ELSE c.sunscreen_ml + EXCLUDED.sunscreen_ml END,
      sanitizer_ml = CASE WHEN c.total + EXCLUDED.total = 0 THEN 0 ELSE c.sanitizer_ml + EXCLUDED.sanitizer_ml END,
      sunscreen_count = c.sunscreen_count + EXCLUDED.sunscreen_count,
      sanitizer_count = c.sanitizer_count + EXCLUDED.sanitizer_count;
  END IF;
  IF (o.group_id, o.brand_id, o.serial, o.number, o.batch_id, o.batch2_id)
     IS DISTINCT FROM (n.group_id, n.brand_id, n.serial, n.number, n.batch_id, n.batch2_id) THEN
    -- Each bucket once, the lower site first, so two writers moving devices between the same two sites take
    -- their locks in one order.
    FOR k IN SELECT DISTINCT x.g, x.b FROM (VALUES (o.group_id, coalesce(o.brand_id, 0)), (n.group_id, coalesce(n.brand_id, 0))) AS x(g, b)
             WHERE x.g IS NOT NULL ORDER BY 1, 2 LOOP
      PERFORM site_members_refresh(k.g, k.b);
    END LOOP;
  END IF;
  IF (o.serial, o.lat, o.lng, o.label, o.number, o.group_id, o.brand_id, o.is_pause, o.is_warning, o.is_online,
      o.is_registration, o.is_activated, o.is_batch_warning, o.is_maintenance)
     IS DISTINCT FROM
     (n.serial, n.lat, n.lng, n.label, n.number, n.group_id, n.brand_id, n.is_pause, n.is_warning, n.is_online,
      n.is_registration, n.is_activated, n.is_batch_warning, n.is_maintenance) THEN
    IF n.group_id IS NULL THEN
      DELETE FROM device_pins WHERE id = o.id;
    ELSE
      INSERT INTO device_pins AS p (id, brand_id, pin)
      VALUES (n.id, n.brand_id, json_build_array(n.serial, n.lat, n.lng,
        n.is_pause::int * 1 | n.is_warning::int * 2 | n.is_online::int * 4 | n.is_registration::int * 8
        | n.is_activated::int * 16 | n.is_batch_warning::int * 32 | n.is_maintenance::int * 64,
        n.label, n.number, n.group_id, n.brand_id))
      ON CONFLICT (id) DO UPDATE SET brand_id = EXCLUDED.brand_id, pin = EXCLUDED.pin;
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
