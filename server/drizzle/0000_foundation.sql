CREATE TABLE "auth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_no" text NOT NULL,
	"batch_type" smallint NOT NULL,
	"install_date" date NOT NULL,
	"expire_date" date NOT NULL,
	"volume_litres" double precision NOT NULL,
	"remain_litres" double precision NOT NULL,
	"is_recalled" boolean DEFAULT false NOT NULL,
	"recalled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "battery_readings" (
	"device_id" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"battery_volt" real NOT NULL,
	"battery_percent" real NOT NULL,
	CONSTRAINT "battery_readings_device_id_recorded_at_pk" PRIMARY KEY("device_id","recorded_at")
);
--> statement-breakpoint
CREATE TABLE "bill_devices" (
	"bill_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "bill_devices_bill_id_device_id_pk" PRIMARY KEY("bill_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"bill_uid" text NOT NULL,
	"product_name" text NOT NULL,
	"price_usd" double precision NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"payment_type" text DEFAULT 'SUBSCRIPTION' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"due_date" date,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand_clients" (
	"brand_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "brand_clients_brand_id_user_id_pk" PRIMARY KEY("brand_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_usage" (
	"device_id" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"kb" real NOT NULL,
	"signal_quality" smallint,
	CONSTRAINT "data_usage_device_id_recorded_at_pk" PRIMARY KEY("device_id","recorded_at")
);
--> statement-breakpoint
CREATE TABLE "device_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"address" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"location_id" integer,
	"client_id" integer,
	"timezone_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"serial" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"number" smallint,
	"address" text DEFAULT '' NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"group_id" integer,
	"brand_id" integer,
	"location_event_type" text DEFAULT 'SITE' NOT NULL,
	"left_pump_type" text DEFAULT 'Sunscreen' NOT NULL,
	"right_pump_type" text DEFAULT 'Unspecified' NOT NULL,
	"batch_id" integer,
	"batch2_id" integer,
	"level_sensor1" boolean DEFAULT true NOT NULL,
	"level_sensor2" boolean DEFAULT true NOT NULL,
	"volume_remain" double precision DEFAULT 0 NOT NULL,
	"volume_remain2" double precision DEFAULT 0 NOT NULL,
	"is_pause" boolean DEFAULT false NOT NULL,
	"is_activated" boolean DEFAULT true NOT NULL,
	"active" text,
	"is_online" boolean DEFAULT false NOT NULL,
	"is_registration" boolean DEFAULT false NOT NULL,
	"is_maintenance" boolean DEFAULT false NOT NULL,
	"is_enabled_maintenance" boolean DEFAULT false NOT NULL,
	"is_enabled_vandalism" boolean DEFAULT false NOT NULL,
	"warning_lists" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_warning" boolean DEFAULT false NOT NULL,
	"is_batch_warning" boolean DEFAULT false NOT NULL,
	"battery_warning" boolean DEFAULT false NOT NULL,
	"battery_volt" real,
	"battery_percent" real,
	"signal_quality" smallint,
	"core_ver" text,
	"poweroff_time" text,
	"wakeup1_time" text,
	"next_wakeup_time" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"simcard_phone_number" text,
	"imei" text,
	"sim_serial_number" text,
	"secret_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "level_readings" (
	"device_id" integer NOT NULL,
	"pump_number" smallint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"level_sensor" boolean NOT NULL,
	"volume_remain" real NOT NULL,
	CONSTRAINT "level_readings_device_id_pump_number_recorded_at_pk" PRIMARY KEY("device_id","pump_number","recorded_at")
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"fips" text,
	"geo_json" text NOT NULL,
	"centroid" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"kind" text NOT NULL,
	"setting" text NOT NULL,
	"desired" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expected_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pump_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"pump_number" smallint NOT NULL,
	"seq" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"volume_ml" real NOT NULL,
	"batch_id" integer
);
--> statement-breakpoint
CREATE TABLE "pump_settings" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"steps_per_second" integer DEFAULT 300 NOT NULL,
	"steps_per_ml" integer DEFAULT 30 NOT NULL,
	"ml_per_shot" double precision NOT NULL,
	"steps_per_second2" integer DEFAULT 300 NOT NULL,
	"steps_per_ml2" integer DEFAULT 30 NOT NULL,
	"ml_per_shot2" double precision NOT NULL,
	"vandalism_max_shots" integer DEFAULT 10 NOT NULL,
	"vandalism_interval" integer DEFAULT 60 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rentals" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"start_time" time,
	"end_time" time,
	"pump_2_start_time" time,
	"pump_2_end_time" time,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"is_enable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_tag_devices" (
	"tag_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "report_tag_devices_tag_id_device_id_pk" PRIMARY KEY("tag_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "report_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_saved_tag" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"direction" text NOT NULL,
	"message" text NOT NULL,
	"created_when" timestamp with time zone NOT NULL,
	"seq" bigint
);
--> statement-breakpoint
CREATE TABLE "user_exclusive_devices" (
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	CONSTRAINT "user_exclusive_devices_user_id_device_id_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"user_type" text NOT NULL,
	"activated" boolean DEFAULT false NOT NULL,
	"rejected_at" timestamp with time zone,
	"deactivated_reason" text,
	"profile_url" text,
	"is_enable_notification_email" boolean DEFAULT false NOT NULL,
	"is_enable_notification_phone" boolean DEFAULT false NOT NULL,
	"is_enable_notification_weekly_report" boolean DEFAULT false NOT NULL,
	"is_enable_notification_daily_dispensation" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "battery_readings" ADD CONSTRAINT "battery_readings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_devices" ADD CONSTRAINT "bill_devices_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_devices" ADD CONSTRAINT "bill_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_clients" ADD CONSTRAINT "brand_clients_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_clients" ADD CONSTRAINT "brand_clients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_usage" ADD CONSTRAINT "data_usage_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_batch2_id_batches_id_fk" FOREIGN KEY ("batch2_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "level_readings" ADD CONSTRAINT "level_readings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pump_events" ADD CONSTRAINT "pump_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pump_events" ADD CONSTRAINT "pump_events_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pump_settings" ADD CONSTRAINT "pump_settings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_emails" ADD CONSTRAINT "report_emails_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tag_devices" ADD CONSTRAINT "report_tag_devices_tag_id_report_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."report_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tag_devices" ADD CONSTRAINT "report_tag_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tags" ADD CONSTRAINT "report_tags_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_log" ADD CONSTRAINT "sms_log_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_exclusive_devices" ADD CONSTRAINT "user_exclusive_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_exclusive_devices" ADD CONSTRAINT "user_exclusive_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_key_hash_key" ON "auth_tokens" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "batches_batch_no_key" ON "batches" USING btree ("batch_no");--> statement-breakpoint
CREATE UNIQUE INDEX "bills_bill_uid_key" ON "bills" USING btree ("bill_uid");--> statement-breakpoint
CREATE INDEX "bills_user_idx" ON "bills" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "brand_clients_user_idx" ON "brand_clients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "device_groups_location_idx" ON "device_groups" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_key" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "devices_group_idx" ON "devices" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "devices_brand_idx" ON "devices" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_tokens_hash_key" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "pending_changes_device_idx" ON "pending_changes" USING btree ("device_id","status");--> statement-breakpoint
CREATE INDEX "pump_events_device_time_idx" ON "pump_events" USING btree ("device_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pump_events_device_seq_key" ON "pump_events" USING btree ("device_id","pump_number","seq");--> statement-breakpoint
CREATE INDEX "report_emails_owner_idx" ON "report_emails" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_tags_owner_name_key" ON "report_tags" USING btree ("owner_id","name");--> statement-breakpoint
CREATE INDEX "sms_log_device_time_idx" ON "sms_log" USING btree ("device_id","created_when");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_log_device_seq_key" ON "sms_log" USING btree ("device_id","seq");--> statement-breakpoint
CREATE INDEX "user_exclusive_devices_device_idx" ON "user_exclusive_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");