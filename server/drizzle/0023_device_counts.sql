-- Issue 46: device counts kept, not recomputed. One row per (brand, county) of placed devices with the
-- counts of the dashboard's filters (0 stands for no brand / no county), changed by triggers in the
-- transaction of each change (server/src/db/functions/device_counts_trg.sql holds the bodies; the
-- migrator applies them right after the migrations). A count over a scope of brands and a county is then
-- a sum over a few rows, not a scan of the fleet.
CREATE TABLE device_counts (
  brand_id integer NOT NULL,
  location_id integer NOT NULL,
  total integer NOT NULL DEFAULT 0,
  online integer NOT NULL DEFAULT 0,
  warning integer NOT NULL DEFAULT 0,
  maintenance integer NOT NULL DEFAULT 0,
  pause integer NOT NULL DEFAULT 0,
  low_battery integer NOT NULL DEFAULT 0,
  synced integer NOT NULL DEFAULT 0,
  PRIMARY KEY (brand_id, location_id)
);
--> statement-breakpoint
INSERT INTO device_counts (brand_id, location_id, total, online, warning, maintenance, pause, low_battery, synced)
SELECT coalesce(d.brand_id, 0), coalesce(g.location_id, 0), count(*), count(*) FILTER (WHERE d.is_online),
       count(*) FILTER (WHERE d.is_warning), count(*) FILTER (WHERE d.is_maintenance), count(*) FILTER (WHERE d.is_pause),
       count(*) FILTER (WHERE d.battery_percent < 50), count(*) FILTER (WHERE d.is_registration)
FROM devices d JOIN device_groups g ON g.id = d.group_id
GROUP BY 1, 2;
--> statement-breakpoint
-- Placeholders, so the triggers can name them; their bodies are applied from server/src/db/functions.
CREATE OR REPLACE FUNCTION device_counts_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION device_counts_site_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE TRIGGER devices_counts AFTER INSERT OR UPDATE OR DELETE ON devices FOR EACH ROW EXECUTE FUNCTION device_counts_trg();
--> statement-breakpoint
CREATE TRIGGER device_groups_counts AFTER UPDATE OF location_id ON device_groups FOR EACH ROW EXECUTE FUNCTION device_counts_site_trg();
