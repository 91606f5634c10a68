-- Site list versions (site_list_version_bump.sql says what they are for).
-- Changes that move many sites at once: every site in `sites` gets a new version, in one statement, in site
-- order (two such changes at once lock the rows in the same order).
CREATE OR REPLACE FUNCTION site_list_versions_bump(sites integer[]) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO site_list_versions AS v (group_id, version)
  SELECT s, nextval('site_list_version_seq') FROM (SELECT DISTINCT s FROM unnest(sites) AS s WHERE s IS NOT NULL ORDER BY 1) x
  ON CONFLICT (group_id) DO UPDATE SET version = EXCLUDED.version;
$fn$;
