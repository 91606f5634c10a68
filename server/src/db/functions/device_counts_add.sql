-- Adds (sign 1) or takes away (sign -1) one placed device's contribution to its (brand, county) bucket of
-- device_counts (migration 0023); no brand or no county is bucket 0. Low battery is below 50 percent: shared's
-- LOW_BATTERY_PERCENT, held to it by tests/integration/device-counts.test.ts.
CREATE OR REPLACE FUNCTION device_counts_add(b integer, l integer, sign integer, online boolean, warning boolean,
  maintenance boolean, paused boolean, battery double precision, synced boolean) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO device_counts AS c (brand_id, location_id, total, online, warning, maintenance, pause, low_battery, synced)
  VALUES (coalesce(b, 0), coalesce(l, 0), sign, sign * online::int, sign * warning::int, sign * maintenance::int,
          sign * paused::int, sign * (coalesce(battery < 50, false))::int, sign * synced::int)
  ON CONFLICT (brand_id, location_id) DO UPDATE SET
    total = c.total + EXCLUDED.total, online = c.online + EXCLUDED.online, warning = c.warning + EXCLUDED.warning,
    maintenance = c.maintenance + EXCLUDED.maintenance, pause = c.pause + EXCLUDED.pause,
    low_battery = c.low_battery + EXCLUDED.low_battery, synced = c.synced + EXCLUDED.synced
$fn$;
