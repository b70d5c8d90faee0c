CREATE TABLE "transcript_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transcript_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"student_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"institution_name" text,
	"recipient_email" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"released_by" integer,
	"reference" text,
	"snapshot" jsonb,
	CONSTRAINT "transcript_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "transcript_requests_released_whole" CHECK (("transcript_requests"."released_at" is null) = ("transcript_requests"."reference" is null) and ("transcript_requests"."reference" is null) = ("transcript_requests"."snapshot" is null))
);
--> statement-breakpoint
DROP INDEX "fee_schedule_one_in_force";--> statement-breakpoint
DROP INDEX "payments_one_success_per_option";--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD COLUMN "kind" text DEFAULT 'school_fee' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "kind" text DEFAULT 'school_fee' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "transcript_request_id" integer;--> statement-breakpoint
ALTER TABLE "transcript_requests" ADD CONSTRAINT "transcript_requests_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_requests" ADD CONSTRAINT "transcript_requests_released_by_staff_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcript_requests_student_id_index" ON "transcript_requests" USING btree ("student_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_transcript_request_id_transcript_requests_id_fk" FOREIGN KEY ("transcript_request_id") REFERENCES "public"."transcript_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_schedule_one_in_force_per_kind" ON "fee_schedule" USING btree ("kind") WHERE "fee_schedule"."replaced_at" is null and "fee_schedule"."kind" <> 'school_fee';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_success_per_transcript" ON "payments" USING btree ("transcript_request_id") WHERE "payments"."status" = 'success' and "payments"."transcript_request_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_schedule_one_in_force" ON "fee_schedule" USING btree ("session",coalesce("programme_id", 0),"level",lower(coalesce("study_mode", '')),"payment_option") WHERE "fee_schedule"."replaced_at" is null and "fee_schedule"."kind" = 'school_fee';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_success_per_option" ON "payments" USING btree ("student_id","payment_option","level","session") WHERE "payments"."status" = 'success' and "payments"."kind" = 'school_fee';--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_kind_known" CHECK ("fee_schedule"."kind" in ('school_fee', 'transcript'));--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_other_kinds_college_wide" CHECK ("fee_schedule"."kind" = 'school_fee' or ("fee_schedule"."level" = 0 and "fee_schedule"."programme_id" is null and "fee_schedule"."study_mode" is null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_transcript_has_its_request" CHECK (("payments"."kind" = 'transcript') = ("payments"."transcript_request_id" is not null));