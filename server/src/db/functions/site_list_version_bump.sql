-- The list versions of the sites (site_list_versions, migration 0026): a site's version moves whenever anything
-- its devices' entries of the whole list show may have changed, in the transaction of the change, so the whole
-- list's kept pieces of that site are read again (server/src/devices/kept-list.ts). This one gives a site a new
-- version (a new value of the sequence).
--
-- Every write of a device's stored list answer moves the version of the device's site: its two writers call
-- site_list_version_bump (devices_list_json_trg: inserts, edits and check-ins) and site_list_versions_bump
-- (refresh_device_list_json: rentals, pending changes, exclusive devices, a site's county, a partner's
-- company). They have the site at hand: a trigger on device_list_answers would have to look the device up,
-- which a plan made while `devices` was empty did by scanning it (a bulk insert of 100,000 devices stalled).
-- The triggers of site_list_version_device_trg, _client_trg and _names_trg cover the rest.
CREATE OR REPLACE FUNCTION site_list_version_bump(site integer) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO site_list_versions AS v (group_id, version) VALUES (site, nextval('site_list_version_seq'))
  ON CONFLICT (group_id) DO UPDATE SET version = EXCLUDED.version;
$fn$;
