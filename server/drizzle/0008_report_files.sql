CREATE TABLE "report_files" (
	"request_key" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"summary" jsonb,
	"xlsx" "bytea",
	"pdf" "bytea",
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
