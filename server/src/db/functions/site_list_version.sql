-- The list versions of the sites (site_list_versions, migration 0026): a site's version moves whenever
-- anything its devices' entries of the whole list show may have changed, in the transaction of the change.
--
-- site_list_version_bump(site): gives the site a new version (a new value of the sequence).
CREATE OR REPLACE FUNCTION site_list_version_bump(site integer) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO site_list_versions AS v (group_id, version) VALUES (site, nextval('site_list_version_seq'))
  ON CONFLICT (group_id) DO UPDATE SET version = EXCLUDED.version;
$fn$;

-- Every write of a device's stored list answer moves the version of the device's site: its two writers call
-- site_list_version_bump (devices_list_json_trg: inserts, edits and check-ins) and site_list_versions_bump
-- (refresh_device_list_json: rentals, pending changes, exclusive devices, a site's county, a partner's
-- company). They have the site at hand: a trigger on device_list_answers would have to look the device up,
-- which a plan made while `devices` was empty did by scanning it (a bulk insert of 100,000 devices stalled).

-- A device leaving a site (moved or deleted: its answer's write names only the new site, or none).
CREATE OR REPLACE FUNCTION site_list_version_device_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF OLD.group_id IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.group_id IS DISTINCT FROM OLD.group_id) THEN
    PERFORM site_list_version_bump(OLD.group_id);
  END IF;
  RETURN NULL;
END
$fn$;

-- Changes that move many sites at once: every site in `sites` gets a new version, in one statement, in site
-- order (two such changes at once lock the rows in the same order).
CREATE OR REPLACE FUNCTION site_list_versions_bump(sites integer[]) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO site_list_versions AS v (group_id, version)
  SELECT s, nextval('site_list_version_seq') FROM (SELECT DISTINCT s FROM unnest(sites) AS s WHERE s IS NOT NULL ORDER BY 1) x
  ON CONFLICT (group_id) DO UPDATE SET version = EXCLUDED.version;
$fn$;

-- A brand assigned to a client or taken away changes which devices the client's list holds, though no
-- answer changes: every site holding the brand's devices moves. An administrative change.
CREATE OR REPLACE FUNCTION site_list_version_client_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM site_list_versions_bump(ARRAY(
    SELECT d.group_id FROM devices d
    WHERE d.brand_id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.brand_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.brand_id END)));
  RETURN NULL;
END
$fn$;

-- A brand or batch renamed: the stored answers hold no names (migration 0013 made renames one row's write;
-- reads put the names in), so the sites of the brand's or batch's devices move here instead.
CREATE OR REPLACE FUNCTION site_list_version_names_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'brands' THEN
    IF NEW.name IS DISTINCT FROM OLD.name THEN
      PERFORM site_list_versions_bump(ARRAY(SELECT d.group_id FROM devices d WHERE d.brand_id = NEW.id));
    END IF;
  ELSIF NEW.batch_no IS DISTINCT FROM OLD.batch_no THEN
    PERFORM site_list_versions_bump(ARRAY(SELECT d.group_id FROM devices d WHERE d.batch_id = NEW.id OR d.batch2_id = NEW.id));
  END IF;
  RETURN NULL;
END
$fn$;
