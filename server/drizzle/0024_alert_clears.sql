-- The flap state's input (issue 43, docs/alerts.md): when each alert cleared, kept as data on the alert rather
-- than read back from its incident's timeline text. Written where an alert clears (alerts.repository.ts
-- clearAlert, which drops the clears older than the flap window), read by the flap rule (clearTimes). A
-- reopened alert keeps its earlier clears: a unit flapping for a day is one alert with several clears.
ALTER TABLE "alerts" ADD COLUMN "clear_times" timestamp with time zone[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
-- Alerts cleared before this column: their last clear (the one that decides with ALERT_FLAP_CLEARS=1).
UPDATE "alerts" SET "clear_times" = ARRAY["cleared_at"] WHERE "cleared_at" IS NOT NULL;
