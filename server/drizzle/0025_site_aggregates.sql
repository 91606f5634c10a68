-- Issue 46: the overview, the sites (deviceGroup) and the pin feed read kept rows instead of scanning the fleet.
-- Three tables kept by triggers in the transaction of each change (the bodies: server/src/db/functions
-- site_aggregates_trg.sql, site_members_refresh.sql, site_members_partner_trg.sql, site_client_members_*.sql;
-- the migrator applies them right after the migrations). No brand is brand 0, as in device_counts.
--
-- site_counts: per (site, brand) of placed devices, what the overview and the site cards add up. A check-in
-- changes one row (its device's), so the rows are not shared hot spots; a site moving county changes nothing
-- here (the county is read from device_groups).
CREATE TABLE site_counts (
  group_id integer NOT NULL,
  brand_id integer NOT NULL,
  total integer NOT NULL DEFAULT 0,
  online integer NOT NULL DEFAULT 0,
  warning integer NOT NULL DEFAULT 0,
  maintenance integer NOT NULL DEFAULT 0,
  pause integer NOT NULL DEFAULT 0,
  low_battery integer NOT NULL DEFAULT 0,
  synced integer NOT NULL DEFAULT 0,
  sunscreen_ml double precision NOT NULL DEFAULT 0,
  sanitizer_ml double precision NOT NULL DEFAULT 0,
  sunscreen_count bigint NOT NULL DEFAULT 0,
  sanitizer_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (group_id, brand_id)
);
--> statement-breakpoint
INSERT INTO site_counts (group_id, brand_id, total, online, warning, maintenance, pause, low_battery, synced,
                         sunscreen_ml, sanitizer_ml, sunscreen_count, sanitizer_count)
SELECT d.group_id, coalesce(d.brand_id, 0), count(*), count(*) FILTER (WHERE d.is_online), count(*) FILTER (WHERE d.is_warning),
       count(*) FILTER (WHERE d.is_maintenance), count(*) FILTER (WHERE d.is_pause),
       count(*) FILTER (WHERE d.battery_percent < 50), count(*) FILTER (WHERE d.is_registration),
       coalesce(sum(CASE WHEN d.left_pump_type = 'Sunscreen' THEN d.dispensed_ml1 ELSE 0 END + CASE WHEN d.right_pump_type = 'Sunscreen' THEN d.dispensed_ml2 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN d.left_pump_type = 'Sanitizer' THEN d.dispensed_ml1 ELSE 0 END + CASE WHEN d.right_pump_type = 'Sanitizer' THEN d.dispensed_ml2 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN d.left_pump_type = 'Sunscreen' THEN d.dispense_count1 ELSE 0 END + CASE WHEN d.right_pump_type = 'Sunscreen' THEN d.dispense_count2 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN d.left_pump_type = 'Sanitizer' THEN d.dispense_count1 ELSE 0 END + CASE WHEN d.right_pump_type = 'Sanitizer' THEN d.dispense_count2 ELSE 0 END), 0)
FROM devices d WHERE d.group_id IS NOT NULL
GROUP BY 1, 2;
--> statement-breakpoint
-- site_members: per (site, brand), and per whole site as brand -1, what deviceGroup lists besides the counts:
-- the devices ({serial, number} in the answer's order), brand ids, batch ids, and the market partners (user ids)
-- holding one of them exclusively (the overview's partner count). Changed only when devices join or leave.
CREATE TABLE site_members (
  group_id integer NOT NULL,
  brand_id integer NOT NULL,
  devices json NOT NULL,
  brand_ids integer[] NOT NULL,
  batch_ids integer[] NOT NULL,
  partner_ids integer[] NOT NULL,
  PRIMARY KEY (group_id, brand_id)
);
--> statement-breakpoint
-- The device lists leave the rows (compressed, then out of line) past 128 bytes, so the overview's read of the
-- brands, batches and partners reads narrow rows (at 10,000 devices 1.5 MB instead of 7.5 MB).
ALTER TABLE site_members SET (toast_tuple_target = 128);
--> statement-breakpoint
INSERT INTO site_members (group_id, brand_id, devices, brand_ids, batch_ids, partner_ids)
SELECT s.group_id, s.brand, s.devices, s.brand_ids, s.batch_ids,
       array(SELECT DISTINCT x.user_id FROM user_exclusive_devices x JOIN devices e ON e.id = x.device_id
             WHERE e.group_id = s.group_id AND (s.brand = -1 OR coalesce(e.brand_id, 0) = s.brand) ORDER BY 1)
FROM (SELECT d.group_id, k.brand,
             json_agg(json_build_object('serial', d.serial, 'number', d.number) ORDER BY d.number, d.serial) AS devices,
             array_remove(array_agg(DISTINCT d.brand_id), NULL) AS brand_ids,
             array_remove(array_agg(DISTINCT d.batch_id) || array_agg(DISTINCT d.batch2_id), NULL) AS batch_ids
      FROM devices d CROSS JOIN LATERAL (VALUES (coalesce(d.brand_id, 0)), (-1)) AS k(brand)
      WHERE d.group_id IS NOT NULL
      GROUP BY d.group_id, k.brand) s;
--> statement-breakpoint
-- site_client_members: per (client, site), the site's devices of the client's brands as deviceGroup lists them
-- for that client, so a client's answer is read, not merged from its brands' rows. Computed again with the
-- site's rows, and when a brand is assigned to the client or taken away.
CREATE TABLE site_client_members (
  client_id integer NOT NULL,
  group_id integer NOT NULL,
  devices json NOT NULL,
  brand_ids integer[] NOT NULL,
  batch_ids integer[] NOT NULL,
  PRIMARY KEY (client_id, group_id)
);
--> statement-breakpoint
ALTER TABLE site_client_members SET (toast_tuple_target = 128);
--> statement-breakpoint
INSERT INTO site_client_members (client_id, group_id, devices, brand_ids, batch_ids)
SELECT x.user_id, d.group_id,
       json_agg(json_build_object('serial', d.serial, 'number', d.number) ORDER BY d.number, d.serial),
       array_remove(array_agg(DISTINCT d.brand_id), NULL),
       array_remove(array_agg(DISTINCT d.batch_id) || array_agg(DISTINCT d.batch2_id), NULL)
FROM devices d JOIN brand_clients x ON x.brand_id = d.brand_id
WHERE d.group_id IS NOT NULL
GROUP BY x.user_id, d.group_id;
--> statement-breakpoint
-- device_pins: each placed device's pin tuple, ready (server/src/devices/pin-sql.ts), so the feed is one read of
-- narrow rows in id order. Named `id` and `brand_id` like devices' columns, so the one scope rule
-- (server/src/access/scope.ts deviceScope) applies to it as written.
CREATE TABLE device_pins (
  id integer PRIMARY KEY,
  brand_id integer,
  pin json NOT NULL
);
--> statement-breakpoint
CREATE INDEX device_pins_brand_idx ON device_pins (brand_id);
--> statement-breakpoint
INSERT INTO device_pins (id, brand_id, pin)
SELECT d.id, d.brand_id, json_build_array(d.serial, d.lat, d.lng,
  d.is_pause::int * 1 | d.is_warning::int * 2 | d.is_online::int * 4 | d.is_registration::int * 8
  | d.is_activated::int * 16 | d.is_batch_warning::int * 32 | d.is_maintenance::int * 64,
  d.label, d.number, d.group_id, d.brand_id)
FROM devices d WHERE d.group_id IS NOT NULL;
--> statement-breakpoint
-- Placeholders, so the triggers can name them; their bodies are applied from server/src/db/functions.
CREATE OR REPLACE FUNCTION site_aggregates_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION site_members_partner_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION site_client_members_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE TRIGGER devices_site_aggregates AFTER INSERT OR UPDATE OR DELETE ON devices FOR EACH ROW EXECUTE FUNCTION site_aggregates_trg();
--> statement-breakpoint
CREATE TRIGGER user_exclusive_devices_site_members AFTER INSERT OR UPDATE OR DELETE ON user_exclusive_devices FOR EACH ROW EXECUTE FUNCTION site_members_partner_trg();
--> statement-breakpoint
CREATE TRIGGER brand_clients_site_members AFTER INSERT OR UPDATE OR DELETE ON brand_clients FOR EACH ROW EXECUTE FUNCTION site_client_members_trg();
