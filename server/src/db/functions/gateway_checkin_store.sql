-- A device check-in in two PL/pgSQL calls inside one transaction (server/src/gateway/gateway.service.ts).
-- PL/pgSQL keeps the plans of its statements per connection, so the big data-modifying statement is not
-- planned on every check-in (about 0.5 ms of PostgreSQL CPU each), and the check-in takes four round trips
-- (BEGIN, store, finish, COMMIT). The warning rules stay in TypeScript
-- (shared/src/rules/warnings.ts): the server computes them between the two calls.
--
-- gateway_checkin_store, the first call: authenticates (serial and the keyed hash of the secret: no row, nothing done,
--    NULL answered), locks the device row (uploads of one device serialise), stores the upload
--    idempotently, settles the acknowledged/failed/expired pending changes, and answers in one JSON object
--    what the server needs: the locked row's fields, what was inserted, the settled changes, the pending
--    changes as they were before, the latest readings and the configuration.
--    p_upload: { pe: [{pump, seq, at, ml}], lv: [{pump, at, sensor, v}], bt: [{at, volt, pct}],
--                du: [{at, kb, sq}], sm: [{dir, msg, at, seq}], applied: [id], failed: [id] }
--    Arrays are numbered so the order of the upload decides between equal keys exactly as a multi-row
--    INSERT does (the first one is stored).
CREATE OR REPLACE FUNCTION gateway_checkin_store(p_serial text, p_hash text, p_t timestamptz, p_upload jsonb)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  d record;
  answer json;
BEGIN
  SELECT id, batch_id, batch2_id, poweroff_time, wakeup1_time, is_pause, is_activated, is_enabled_maintenance,
         is_enabled_vandalism, group_id, left_pump_type, right_pump_type, battery_percent, level_sensor1,
         level_sensor2, volume_remain, volume_remain2, pump_sensor_fault
    INTO d FROM devices WHERE serial = p_serial AND secret_hash = p_hash FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- One statement: every part sees the snapshot taken after the lock, so the results of its own inserts and
  -- updates are merged in explicitly (the latest readings below; the settled statuses by the server).
  WITH
  pe_in AS (SELECT e.ord, (e.j->>'pump')::smallint AS pump, (e.j->>'seq')::bigint AS seq, (e.j->>'at')::timestamptz AS at,
                   (e.j->>'ml')::real AS ml
            FROM jsonb_array_elements(p_upload->'pe') WITH ORDINALITY AS e(j, ord)),
  lv_in AS (SELECT e.ord, (e.j->>'pump')::smallint AS pump, (e.j->>'at')::timestamptz AS at,
                   (e.j->>'sensor')::boolean AS sensor, (e.j->>'v')::real AS v
            FROM jsonb_array_elements(p_upload->'lv') WITH ORDINALITY AS e(j, ord)),
  bt_in AS (SELECT e.ord, (e.j->>'at')::timestamptz AS at, (e.j->>'volt')::real AS volt, (e.j->>'pct')::real AS pct
            FROM jsonb_array_elements(p_upload->'bt') WITH ORDINALITY AS e(j, ord)),
  applied AS (SELECT jsonb_array_elements_text(p_upload->'applied')::int AS id),
  failed AS (SELECT jsonb_array_elements_text(p_upload->'failed')::int AS id),
  pe_ins AS (INSERT INTO pump_events (device_id, pump_number, seq, occurred_at, volume_ml, batch_id)
             SELECT d.id, pump, seq, at, ml, CASE WHEN pump = 1 THEN d.batch_id ELSE d.batch2_id END FROM pe_in ORDER BY ord
             ON CONFLICT (device_id, pump_number, seq) DO NOTHING
             RETURNING pump_number, volume_ml, batch_id),
  lv_ins AS (INSERT INTO level_readings (device_id, pump_number, recorded_at, level_sensor, volume_remain)
             SELECT d.id, pump, at, sensor, v FROM lv_in ORDER BY ord
             ON CONFLICT DO NOTHING RETURNING 1),
  bt_ins AS (INSERT INTO battery_readings (device_id, recorded_at, battery_volt, battery_percent)
             SELECT d.id, at, volt, pct FROM bt_in ORDER BY ord
             ON CONFLICT DO NOTHING RETURNING 1),
  du_ins AS (INSERT INTO data_usage (device_id, recorded_at, kb, signal_quality)
             SELECT d.id, (e.j->>'at')::timestamptz, (e.j->>'kb')::real, (e.j->>'sq')::smallint
             FROM jsonb_array_elements(p_upload->'du') WITH ORDINALITY AS e(j, ord) ORDER BY e.ord
             ON CONFLICT DO NOTHING RETURNING 1),
  sm_ins AS (INSERT INTO sms_log (device_id, direction, message, created_when, seq)
             SELECT d.id, e.j->>'dir', e.j->>'msg', (e.j->>'at')::timestamptz, (e.j->>'seq')::bigint
             FROM jsonb_array_elements(p_upload->'sm') WITH ORDINALITY AS e(j, ord) ORDER BY e.ord
             ON CONFLICT (device_id, seq) DO NOTHING RETURNING 1),
  -- A pending change of this device is settled: applied wins over failed, and only what is still pending
  -- after both may expire. Setting the status fires pending_changes_list_json (migration 0003).
  settled AS (UPDATE pending_changes
              SET status = CASE WHEN id IN (SELECT id FROM applied) THEN 'applied'
                                WHEN id IN (SELECT id FROM failed) THEN 'failed'
                                ELSE 'expired' END,
                  resolved_at = p_t
              WHERE device_id = d.id AND status = 'pending'
                AND (id IN (SELECT id FROM applied) OR id IN (SELECT id FROM failed) OR coalesce(expires_at < p_t, false))
              RETURNING id, status)
  SELECT row_to_json(a) INTO answer FROM (
    SELECT
      d.id, d.batch_id, d.poweroff_time, d.wakeup1_time, d.is_pause, d.is_activated, d.is_enabled_maintenance,
      d.is_enabled_vandalism, d.left_pump_type, d.right_pump_type, d.battery_percent, d.level_sensor1,
      d.level_sensor2, d.volume_remain, d.volume_remain2, d.pump_sensor_fault,
      (SELECT coalesce(json_agg(json_build_object('pump', pump_number, 'ml', volume_ml, 'batch', batch_id)), '[]') FROM pe_ins) AS pe,
      (SELECT count(*)::int FROM lv_ins) AS lv, (SELECT count(*)::int FROM bt_ins) AS bt,
      (SELECT count(*)::int FROM du_ins) AS du, (SELECT count(*)::int FROM sm_ins) AS sm,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'status', status)), '[]') FROM settled) AS settled,
      -- Pending changes as they were before this statement (its own updates are not visible here): the
      -- still-pending ones are answered, and FAILED_REQUEST needs failed/expired ones that no newer request
      -- of the same setting replaced.
      (SELECT coalesce(json_agg(json_build_object('id', p.id, 'setting', p.setting, 'desired', p.desired, 'status', p.status,
                                  'superseded', EXISTS (SELECT 1 FROM pending_changes q WHERE q.device_id = p.device_id
                                                        AND q.setting = p.setting AND q.requested_at > p.requested_at))
                                ORDER BY p.id), '[]')
         FROM pending_changes p WHERE p.device_id = d.id AND p.status IN ('pending', 'failed', 'expired')) AS changes,
      l1.sensor AS s1, l1.v AS v1, l2.sensor AS s2, l2.v AS v2, b.pct AS bp, b.volt AS bv,
      lb.expire_date::text AS l_exp, lb.is_recalled AS l_rec, rb.expire_date::text AS r_exp, rb.is_recalled AS r_rec,
      s.steps_per_second, s.steps_per_ml, s.ml_per_shot, s.steps_per_second2, s.steps_per_ml2, s.ml_per_shot2,
      s.vandalism_max_shots, s.vandalism_interval,
      r.device_id IS NOT NULL AS has_rental, r.start_date::text AS start_date, r.end_date::text AS end_date,
      r.start_time::text AS start_time, r.end_time::text AS end_time,
      r.pump_2_start_time::text AS pump_2_start_time, r.pump_2_end_time::text AS pump_2_end_time,
      g.timezone_id
    FROM (SELECT 1) AS one
    -- The latest reading of each kind, whatever the upload order: the newest stored one (seen before the
    -- inserts) against the upload's; on equal time the stored one stays (the upload's was a duplicate),
    -- then the first of the upload (the one inserted). Values as the real columns store them.
    LEFT JOIN LATERAL (
      SELECT c.sensor, c.v FROM (
        (SELECT level_sensor AS sensor, volume_remain AS v, recorded_at AS at, 0 AS src, 0::bigint AS ord
         FROM level_readings WHERE device_id = d.id AND pump_number = 1 ORDER BY recorded_at DESC LIMIT 1)
        UNION ALL SELECT x.sensor, x.v, x.at, 1, x.ord FROM lv_in x WHERE x.pump = 1) c
      ORDER BY c.at DESC, c.src, c.ord LIMIT 1) l1 ON true
    LEFT JOIN LATERAL (
      SELECT c.sensor, c.v FROM (
        (SELECT level_sensor AS sensor, volume_remain AS v, recorded_at AS at, 0 AS src, 0::bigint AS ord
         FROM level_readings WHERE device_id = d.id AND pump_number = 2 ORDER BY recorded_at DESC LIMIT 1)
        UNION ALL SELECT x.sensor, x.v, x.at, 1, x.ord FROM lv_in x WHERE x.pump = 2) c
      ORDER BY c.at DESC, c.src, c.ord LIMIT 1) l2 ON true
    LEFT JOIN LATERAL (
      SELECT c.pct, c.volt FROM (
        (SELECT battery_percent AS pct, battery_volt AS volt, recorded_at AS at, 0 AS src, 0::bigint AS ord
         FROM battery_readings WHERE device_id = d.id ORDER BY recorded_at DESC LIMIT 1)
        UNION ALL SELECT x.pct, x.volt, x.at, 1, x.ord FROM bt_in x) c
      ORDER BY c.at DESC, c.src, c.ord LIMIT 1) b ON true
    LEFT JOIN batches lb ON lb.id = d.batch_id
    LEFT JOIN batches rb ON rb.id = d.batch2_id
    LEFT JOIN pump_settings s ON s.device_id = d.id
    LEFT JOIN rentals r ON r.device_id = d.id
    LEFT JOIN device_groups g ON g.id = d.group_id
  ) a;
  RETURN answer;
END
$fn$;
