-- Batch numbers are one lot whatever their letter case and the spaces around them (shared/src/rules/batch-status.ts
-- batchNumberKey; schema.ts batchNumberKeyOf): the unique index is on that key, not the exact text, so ' spf-1 '
-- and 'SPF-1' can no longer both be stored. Near-duplicates already stored are reported, never dropped: the
-- migration stops with their numbers and ids, to be renamed or merged by a person, and runs again at the next start.
DO $check$
DECLARE
  found text;
BEGIN
  SELECT string_agg(format('%s (batch ids %s)', key, ids), '; ') INTO found
  FROM (
    SELECT lower(btrim(batch_no)) AS key, string_agg(id::text, ', ' ORDER BY id) AS ids
    FROM batches GROUP BY 1 HAVING count(*) > 1
  ) twins;
  IF found IS NOT NULL THEN
    RAISE EXCEPTION 'Batch numbers that differ only in letter case or surrounding spaces: %. Rename or merge them, then start again (migration 0019).', found;
  END IF;
END
$check$;
--> statement-breakpoint
DROP INDEX IF EXISTS "batches_batch_no_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "batches_batch_no_key" ON "batches" USING btree (lower(btrim("batch_no")));
--> statement-breakpoint
-- The states of a pending change, one list: shared/src/constants.ts PENDING_CHANGE_STATES (schema.ts builds the
-- same CHECK from it; tests/integration/house-rules.test.ts compares this one with it).
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_status_check"
  CHECK (status IN ('pending', 'applied', 'failed', 'expired', 'cancelled', 'replaced'));
