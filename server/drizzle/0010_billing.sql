ALTER TABLE "bills" ADD COLUMN "provider" text DEFAULT 'offline' NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "payment_reference" text;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "paid_by" integer;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bills_open_due_idx" ON "bills" USING btree ("due_date") WHERE "bills"."status" in ('PENDING', 'OVERDUE');--> statement-breakpoint
CREATE INDEX "bill_devices_device_idx" ON "bill_devices" USING btree ("device_id");--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"bill_uid" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
