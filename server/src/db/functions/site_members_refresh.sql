-- Computes again the site_members rows (migration 0025) of site `g` for brand bucket `b` (0: no brand) and
-- for the whole site (-1) from the site's devices (a few, through devices_group_idx): what GET
-- /api/v1/deviceGroup lists per site besides the counts, and the site's rows of the brand's clients
-- (site_client_members_refresh). Called only when a device joins, leaves or changes
-- its serial, number, brand or batches, or a partner's exclusive devices change: never by a plain check-in.
-- A transaction-scoped advisory lock per site serialises two writers of one site, and each statement below
-- reads after it (its own snapshot), so the last writer sees the other's committed devices.
CREATE OR REPLACE FUNCTION site_members_refresh(g integer, b integer) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(727275, g);
  INSERT INTO site_members AS m (group_id, brand_id, devices, brand_ids, batch_ids, partner_ids)
  SELECT g, k.brand,
         json_agg(json_build_object('serial', d.serial, 'number', d.number) ORDER BY d.number, d.serial),
         array_remove(array_agg(DISTINCT d.brand_id), NULL),
         array_remove(array_agg(DISTINCT d.batch_id) || array_agg(DISTINCT d.batch2_id), NULL),
         array(SELECT DISTINCT x.user_id FROM user_exclusive_devices x JOIN devices e ON e.id = x.device_id
               WHERE e.group_id = g AND (k.brand = -1 OR coalesce(e.brand_id, 0) = k.brand) ORDER BY 1)
  FROM (VALUES (b), (-1)) AS k(brand)
  JOIN devices d ON d.group_id = g AND (k.brand = -1 OR coalesce(d.brand_id, 0) = k.brand)
  GROUP BY k.brand
  ON CONFLICT (group_id, brand_id) DO UPDATE SET devices = EXCLUDED.devices, brand_ids = EXCLUDED.brand_ids,
    batch_ids = EXCLUDED.batch_ids, partner_ids = EXCLUDED.partner_ids;
  DELETE FROM site_members m WHERE m.group_id = g AND m.brand_id IN (b, -1)
    AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.group_id = g AND (m.brand_id = -1 OR coalesce(d.brand_id, 0) = m.brand_id));
  -- The rows of the clients the brand is assigned to (at most five).
  PERFORM site_client_members_refresh(g, x.user_id) FROM brand_clients x WHERE x.brand_id = b;
END
$fn$;
