-- The /maintenance credential (spec section 2: a fixed maintenance token) and what technicians did.
-- Only a keyed hash of a credential is stored (the same HMAC as API tokens). A credential comes from
-- configuration (MAINTENANCE_TOKEN, registered at start-up) or from a distributor's rotation; revoked_at
-- ends it, and a revoked configured value stays revoked across restarts (its hash row remains).
CREATE TABLE "maintenance_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"source" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "maintenance_credentials" ADD CONSTRAINT "maintenance_credentials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_credentials_token_hash_key" ON "maintenance_credentials" USING btree ("token_hash");
--> statement-breakpoint
-- One visit's work on one device: actions ('refilled', 'batch_replaced', 'repaired'), a note, who and when.
CREATE TABLE "maintenance_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"actions" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"recorded_by" text NOT NULL,
	"user_id" integer,
	"performed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "maintenance_records_performed_idx" ON "maintenance_records" USING btree ("performed_at");
--> statement-breakpoint
CREATE INDEX "maintenance_records_device_idx" ON "maintenance_records" USING btree ("device_id","performed_at");
