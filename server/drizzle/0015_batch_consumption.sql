-- Batch consumption appended by check-ins, folded into batches.remain_litres later (schema.ts batchConsumption).
CREATE TABLE "batch_consumption" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"litres" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_consumption" ADD CONSTRAINT "batch_consumption_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_consumption_batch_idx" ON "batch_consumption" USING btree ("batch_id");

--> statement-breakpoint
-- gateway_checkin_finish as in 0006, but a check-in's batch consumption is appended to batch_consumption
-- instead of updating the shared batch rows: with every device of a batch updating its one row, check-ins
-- queued on that row's lock behind whichever commit was slowest (npm run bench: up to 2.8 check-ins waiting
-- on it in every sample of a slow second, p99 100-360 ms at 200/s while the portal was busy).
CREATE OR REPLACE FUNCTION gateway_checkin_finish(p jsonb) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_id int := (p->>'id')::int;
BEGIN
  UPDATE devices SET
    last_seen_at = (p->>'t')::timestamptz, is_online = true, next_wakeup_time = (p->>'next')::timestamptz,
    warning_lists = p->'warnings', is_warning = (p->>'isWarning')::boolean,
    is_batch_warning = (p->>'isBatchWarning')::boolean, battery_warning = (p->>'batteryWarning')::boolean,
    dispense_count1 = dispense_count1 + (p->>'dc1')::bigint, dispense_count2 = dispense_count2 + (p->>'dc2')::bigint,
    dispensed_ml1 = dispensed_ml1 + (p->>'ml1')::float8, dispensed_ml2 = dispensed_ml2 + (p->>'ml2')::float8,
    core_ver = coalesce(p->>'coreVer', core_ver),
    signal_quality = coalesce((p->>'signal')::smallint, signal_quality),
    level_sensor1 = coalesce((p->>'s1')::boolean, level_sensor1),
    volume_remain = CASE WHEN p ? 's1' THEN (p->>'v1')::float8 ELSE volume_remain END,
    level_sensor2 = coalesce((p->>'s2')::boolean, level_sensor2),
    volume_remain2 = CASE WHEN p ? 's2' THEN (p->>'v2')::float8 ELSE volume_remain2 END,
    battery_percent = CASE WHEN p ? 'bp' THEN (p->>'bp')::real ELSE battery_percent END,
    battery_volt = CASE WHEN p ? 'bp' THEN (p->>'bv')::real ELSE battery_volt END,
    pump_sensor_fault = coalesce((p->>'fault')::boolean, pump_sensor_fault),
    reported_lat = CASE WHEN p ? 'locAt' THEN (p->>'lat')::float8 ELSE reported_lat END,
    reported_lng = CASE WHEN p ? 'locAt' THEN (p->>'lng')::float8 ELSE reported_lng END,
    reported_location_at = CASE WHEN p ? 'locAt' THEN (p->>'locAt')::timestamptz ELSE reported_location_at END
  WHERE id = v_id;
  UPDATE pending_changes SET expected_at = (p->>'next')::timestamptz WHERE device_id = v_id AND status = 'pending';
  -- Batch consumption is appended, not applied: no shared row is locked (batch_consumption_fold applies it).
  -- Only batches that still exist (one deleted since the store read the device is not charged).
  INSERT INTO batch_consumption (batch_id, litres)
    SELECT b.id, v.ml / 1000
    FROM (SELECT (e->>0)::int AS id, (e->>1)::float8 AS ml FROM jsonb_array_elements(p->'consumed') e) v
    JOIN batches b ON b.id = v.id;
END
$fn$;
--> statement-breakpoint
-- Moves the appended consumption into batches.remain_litres (never below 0): of one batch, or of every
-- batch (NULL). The batch rows are locked first and in id order, so a fold and a batch's edit (which locks
-- its row, then folds it) wait for one another instead of deadlocking. Rows appended after the DELETE's
-- snapshot stay for the next fold: nothing is counted twice or lost.
CREATE OR REPLACE FUNCTION batch_consumption_fold(p_batch int) RETURNS int LANGUAGE plpgsql AS $fn$
DECLARE
  v_rows int;
BEGIN
  PERFORM 1 FROM batches WHERE id IN (SELECT DISTINCT batch_id FROM batch_consumption WHERE p_batch IS NULL OR batch_id = p_batch) ORDER BY id FOR NO KEY UPDATE;
  WITH moved AS (
    DELETE FROM batch_consumption WHERE p_batch IS NULL OR batch_id = p_batch RETURNING batch_id, litres
  ), total AS (
    SELECT batch_id, sum(litres) AS litres, count(*) AS n FROM moved GROUP BY batch_id
  ), applied AS (
    UPDATE batches SET remain_litres = greatest(0, batches.remain_litres - total.litres) FROM total WHERE batches.id = total.batch_id RETURNING total.n
  )
  SELECT coalesce(sum(n), 0)::int INTO v_rows FROM applied;
  RETURN v_rows;
END
$fn$;
