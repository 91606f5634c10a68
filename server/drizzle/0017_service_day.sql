-- Service day (issue 48): crews, plans with their versions, and which devices each published plan visits.
CREATE TABLE "crews" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"depot_address" text NOT NULL,
	"depot_lat" double precision NOT NULL,
	"depot_lng" double precision NOT NULL,
	"timezone_id" text NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"capacity_litres" double precision NOT NULL,
	"capacity_batteries" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crews" ADD CONSTRAINT "crews_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crews_owner_idx" ON "crews" USING btree ("owner_id");--> statement-breakpoint
CREATE TABLE "service_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"plan_date" date NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"body" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_plans_owner_date_version_key" ON "service_plans" USING btree ("owner_id","plan_date","version");--> statement-breakpoint
-- One published plan per owner and date (published, in progress or done); older versions are 'superseded'.
CREATE UNIQUE INDEX "service_plans_one_published_key" ON "service_plans" USING btree ("owner_id","plan_date") WHERE "status" in ('published', 'in_progress', 'done');--> statement-breakpoint
CREATE TABLE "service_plan_devices" (
	"plan_id" integer NOT NULL,
	"serial" text NOT NULL,
	"crew_id" integer NOT NULL,
	"stop_order" integer NOT NULL,
	CONSTRAINT "service_plan_devices_plan_id_serial_pk" PRIMARY KEY("plan_id","serial")
);
--> statement-breakpoint
ALTER TABLE "service_plan_devices" ADD CONSTRAINT "service_plan_devices_plan_id_service_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."service_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_plan_devices_serial_idx" ON "service_plan_devices" USING btree ("serial");
