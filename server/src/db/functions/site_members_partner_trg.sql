-- A market partner's exclusive device added or taken away (user_exclusive_devices): the device's site rows of
-- site_members (migration 0025) count their partners again. A partner's company and user type are read when
-- the overview is answered, so their changes need nothing here.
CREATE OR REPLACE FUNCTION site_members_partner_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  k record;
BEGIN
  FOR k IN SELECT DISTINCT d.group_id AS g, coalesce(d.brand_id, 0) AS b FROM devices d
           WHERE d.group_id IS NOT NULL
             AND d.id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.device_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.device_id END)
           ORDER BY 1, 2 LOOP
    PERFORM site_members_refresh(k.g, k.b);
  END LOOP;
  RETURN NULL;
END
$fn$;
