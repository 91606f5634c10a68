-- The field app's records (issue 44): per-pump refills with their batch, the crew the technician declared,
-- a photo, the phone's time of the act (performed_at) beside the server's (received_at), and the phone's
-- idempotency key: a record sent twice is stored once (the unique index; records without a key stay many).
ALTER TABLE "maintenance_records" ADD COLUMN "received_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "refills" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "crew_id" text;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "crew_name" text;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "photo" bytea;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_records_idempotency_key" ON "maintenance_records" USING btree ("idempotency_key");
