ALTER TABLE "devices" ADD COLUMN "pump_sensor_fault" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_lat" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_lng" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "reported_location_at" timestamp with time zone;