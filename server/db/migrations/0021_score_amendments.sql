CREATE TABLE "score_amendments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "score_amendments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offering_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"old_ca" integer,
	"old_exam" integer,
	"old_special" text,
	"new_ca" integer,
	"new_exam" integer,
	"new_special" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by" integer NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"endorsed_by" integer,
	"endorsed_at" timestamp with time zone,
	"applied_by" integer,
	"applied_at" timestamp with time zone,
	"declined_by" integer,
	"declined_at" timestamp with time zone,
	"decline_note" text
);
--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_offering_id_course_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."course_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_proposed_by_staff_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_endorsed_by_staff_id_fk" FOREIGN KEY ("endorsed_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_applied_by_staff_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_amendments" ADD CONSTRAINT "score_amendments_declined_by_staff_id_fk" FOREIGN KEY ("declined_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "score_amendments_student_id_index" ON "score_amendments" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "score_amendments_one_open" ON "score_amendments" USING btree ("offering_id","student_id") WHERE "score_amendments"."status" in ('proposed', 'endorsed');