-- Issue 46: the whole device list (GET /api/v1/device) is joined from compressed pieces kept per range of
-- sites (server/src/devices/kept-list.ts); a piece is read and compressed again only when one of its sites'
-- list versions moved. A version is a value of site_list_version_seq, so a range's max only ever grows
-- while its sites' list answers change. Rows are never deleted (a site left without devices keeps its last
-- version), so a range's max never falls back to a value an older piece was kept with.
CREATE SEQUENCE site_list_version_seq;
--> statement-breakpoint
CREATE TABLE site_list_versions (
  group_id integer PRIMARY KEY,
  version bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO site_list_versions (group_id, version)
SELECT g, nextval('site_list_version_seq') FROM (SELECT DISTINCT group_id AS g FROM devices WHERE group_id IS NOT NULL ORDER BY 1) s;
--> statement-breakpoint
-- Every write of a stored list answer moves its site's version too (devices_list_json_trg and
-- refresh_device_list_json, the two writers of device_list_answers, call site_list_version_bump). The triggers
-- below cover what those do not see. Placeholders, so the triggers can name them; their bodies are applied
-- from server/src/db/functions.
CREATE OR REPLACE FUNCTION site_list_version_device_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION site_list_version_client_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION site_list_version_names_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN RETURN NULL; END $fn$;
--> statement-breakpoint
CREATE TRIGGER devices_site_list_version AFTER UPDATE OF group_id OR DELETE ON devices FOR EACH ROW EXECUTE FUNCTION site_list_version_device_trg();
--> statement-breakpoint
CREATE TRIGGER brand_clients_site_list_version AFTER INSERT OR UPDATE OR DELETE ON brand_clients FOR EACH ROW EXECUTE FUNCTION site_list_version_client_trg();
--> statement-breakpoint
CREATE TRIGGER brands_site_list_version AFTER UPDATE OF name ON brands FOR EACH ROW EXECUTE FUNCTION site_list_version_names_trg();
--> statement-breakpoint
CREATE TRIGGER batches_site_list_version AFTER UPDATE OF batch_no ON batches FOR EACH ROW EXECUTE FUNCTION site_list_version_names_trg();
