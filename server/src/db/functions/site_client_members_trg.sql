-- A brand assigned to a client or taken away (brand_clients): the client's rows of site_client_members
-- (migration 0025) are computed again at every site holding that brand's devices and at every site where the
-- client has a row (so the result does not depend on whether the brand's devices were changed first, as when
-- a brand is deleted). An administrative change: one small refresh per site.
CREATE OR REPLACE FUNCTION site_client_members_trg() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  k record;
BEGIN
  FOR k IN WITH x(b, c) AS (VALUES (CASE WHEN TG_OP <> 'INSERT' THEN OLD.brand_id END, CASE WHEN TG_OP <> 'INSERT' THEN OLD.user_id END),
                                   (CASE WHEN TG_OP <> 'DELETE' THEN NEW.brand_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.user_id END))
           SELECT s.group_id AS g, x.c FROM site_members s JOIN x ON s.brand_id = x.b
           UNION
           SELECT m.group_id, x.c FROM site_client_members m JOIN x ON m.client_id = x.c
           ORDER BY 1, 2 LOOP
    PERFORM site_client_members_refresh(k.g, k.c);
  END LOOP;
  RETURN NULL;
END
$fn$;
