-- Report recipients confirm before any report reaches them (issue 42): a client had mailed 20 reports to a
-- stranger's address. confirmed_at null: not confirmed yet; confirm_token_hash: the HMAC of the single-purpose
-- token of the last confirmation mail (cleared once used).
ALTER TABLE "report_emails" ADD COLUMN "confirmed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "report_emails" ADD COLUMN "confirm_token_hash" text;
--> statement-breakpoint
-- The recipients on a list before this migration count as confirmed (the issue's decision).
UPDATE "report_emails" SET "confirmed_at" = now();
--> statement-breakpoint
CREATE UNIQUE INDEX "report_emails_confirm_token_idx" ON "report_emails" USING btree ("confirm_token_hash") WHERE "confirm_token_hash" IS NOT NULL;
--> statement-breakpoint
-- When an address was last sent a confirmation mail, whoever asked: at most one a day per address.
CREATE TABLE "report_recipient_confirmations" (
	"email" text PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL
);
