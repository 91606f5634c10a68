-- Computes again the site_client_members row (migration 0025) of site `g` for client `c`: the site's devices of
-- the client's brands, as deviceGroup lists them for that client. Called by site_members_refresh (a device of
-- one of the client's brands joined, left or changed) and when a brand is assigned to the client or taken away
-- (site_client_members_trg). Under the same per-site lock as site_members_refresh (re-entrant in a transaction).
CREATE OR REPLACE FUNCTION site_client_members_refresh(g integer, c integer) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(727275, g);
  INSERT INTO site_client_members AS m (group_id, client_id, devices, brand_ids, batch_ids)
  SELECT g, c, json_agg(json_build_object('serial', d.serial, 'number', d.number) ORDER BY d.number, d.serial),
         array_remove(array_agg(DISTINCT d.brand_id), NULL),
         array_remove(array_agg(DISTINCT d.batch_id) || array_agg(DISTINCT d.batch2_id), NULL)
  FROM devices d
  WHERE d.group_id = g AND d.brand_id IN (SELECT x.brand_id FROM brand_clients x WHERE x.user_id = c)
  HAVING count(*) > 0
  ON CONFLICT (client_id, group_id) DO UPDATE SET devices = EXCLUDED.devices, brand_ids = EXCLUDED.brand_ids,
    batch_ids = EXCLUDED.batch_ids;
  DELETE FROM site_client_members m WHERE m.group_id = g AND m.client_id = c
    AND NOT EXISTS (SELECT 1 FROM devices d
                    WHERE d.group_id = g AND d.brand_id IN (SELECT x.brand_id FROM brand_clients x WHERE x.user_id = c));
END
$fn$;
