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
