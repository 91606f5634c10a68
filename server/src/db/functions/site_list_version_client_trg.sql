-- Site list versions (site_list_version_bump.sql says what they are for).
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
