CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"relay_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"relayed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_idempotency_key_key" ON "outbox" USING btree ("idempotency_key");
--> statement-breakpoint
CREATE INDEX "outbox_open_idx" ON "outbox" USING btree ("created_at") WHERE "status" = 'pending';
