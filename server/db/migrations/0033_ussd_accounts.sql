CREATE TABLE "ussd_accounts" (
	"student_id" integer PRIMARY KEY NOT NULL,
	"pin_hash" text NOT NULL,
	"pin_set_at" timestamp with time zone NOT NULL,
	"wrong_pins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"language" text DEFAULT 'en' NOT NULL,
	CONSTRAINT "ussd_accounts_language_known" CHECK (language in ('en', 'ha', 'yo', 'ig'))
);
--> statement-breakpoint
CREATE TABLE "ussd_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"student_id" integer NOT NULL,
	"phone" text NOT NULL,
	"pin_given_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ussd_accounts" ADD CONSTRAINT "ussd_accounts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ussd_sessions" ADD CONSTRAINT "ussd_sessions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ussd_sessions_pin_given_at_index" ON "ussd_sessions" USING btree ("pin_given_at");