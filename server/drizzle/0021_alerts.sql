-- Alerts (issue 43): incidents, the alerts grouped into them, their timeline, users' notification rules, the
-- distributors' escalation policy, and the notifications outbox (one row per incident, recipient, channel and
-- kind, keyed for idempotency), written in the transaction that raised the incident (server/src/alerts).
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"condition" text NOT NULL,
	"severity" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"reason" text NOT NULL,
	"site_id" integer REFERENCES "device_groups"("id") ON DELETE SET NULL,
	"account_id" integer REFERENCES "users"("id") ON DELETE CASCADE,
	"opened_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"resolved_by_hand" boolean DEFAULT false NOT NULL,
	"reopen_count" integer DEFAULT 0 NOT NULL,
	"escalations_sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "incidents_state_check" CHECK ("state" IN ('open', 'acknowledged', 'resolved'))
);
--> statement-breakpoint
CREATE INDEX "incidents_key_idx" ON "incidents" USING btree ("key", "id");
--> statement-breakpoint
CREATE INDEX "incidents_unresolved_idx" ON "incidents" USING btree ("opened_at") WHERE "state" <> 'resolved';
--> statement-breakpoint
CREATE INDEX "incidents_site_idx" ON "incidents" USING btree ("site_id");
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE,
	"device_id" integer REFERENCES "devices"("id") ON DELETE CASCADE,
	"account_id" integer REFERENCES "users"("id") ON DELETE CASCADE,
	"condition" text NOT NULL,
	"reason" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"absent_since" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	CONSTRAINT "alerts_subject_check" CHECK (("device_id" IS NULL) <> ("account_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX "alerts_device_idx" ON "alerts" USING btree ("device_id", "condition", "id");
--> statement-breakpoint
CREATE INDEX "alerts_account_idx" ON "alerts" USING btree ("account_id", "condition", "id");
--> statement-breakpoint
CREATE INDEX "alerts_incident_idx" ON "alerts" USING btree ("incident_id");
--> statement-breakpoint
CREATE INDEX "alerts_active_idx" ON "alerts" USING btree ("device_id") WHERE "state" = 'active';
--> statement-breakpoint
CREATE TABLE "incident_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"user_id" integer REFERENCES "users"("id") ON DELETE SET NULL
);
--> statement-breakpoint
CREATE INDEX "incident_events_incident_idx" ON "incident_events" USING btree ("incident_id", "id");
--> statement-breakpoint
CREATE TABLE "notification_rules" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One policy per distributor organisation (the distributors' company, lower-cased).
CREATE TABLE "escalation_policies" (
	"organisation" text PRIMARY KEY NOT NULL,
	"policy" jsonb NOT NULL,
	"updated_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "incidents"("id") ON DELETE CASCADE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"digest" boolean DEFAULT false NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_idempotency_key_key" ON "notifications" USING btree ("idempotency_key");
--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "notifications" USING btree ("due_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id", "id") WHERE "channel" = 'inApp';
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");
