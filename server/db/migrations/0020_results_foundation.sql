CREATE TABLE "course_offerings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "course_offerings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"session" text NOT NULL,
	"semester" integer NOT NULL,
	"department_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"submitted_at" timestamp with time zone,
	"submitted_by" integer,
	"approved_at" timestamp with time zone,
	"approved_by" integer,
	"return_note" text
);
--> statement-breakpoint
CREATE TABLE "course_scores" (
	"offering_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"ca" integer,
	"exam" integer,
	"special" text,
	"entered_by" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "course_scores_offering_id_student_id_pk" PRIMARY KEY("offering_id","student_id"),
	CONSTRAINT "course_scores_exam_or_special" CHECK ("course_scores"."exam" is null or "course_scores"."special" is null)
);
--> statement-breakpoint
CREATE TABLE "department_heads" (
	"department_id" integer PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grading_schemes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "grading_schemes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"from_session" text NOT NULL,
	"scheme" jsonb NOT NULL,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grading_schemes_fromSession_unique" UNIQUE("from_session")
);
--> statement-breakpoint
CREATE TABLE "offering_lecturers" (
	"offering_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	CONSTRAINT "offering_lecturers_offering_id_staff_id_pk" PRIMARY KEY("offering_id","staff_id")
);
--> statement-breakpoint
CREATE TABLE "result_publications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "result_publications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"programme_id" integer NOT NULL,
	"session" text NOT NULL,
	"semester" integer NOT NULL,
	"board_meeting_on" date NOT NULL,
	"minute_reference" text NOT NULL,
	"published_by" integer NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_mappings" ADD COLUMN "compulsory" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "course_offerings" ADD CONSTRAINT "course_offerings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_offerings" ADD CONSTRAINT "course_offerings_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_offerings" ADD CONSTRAINT "course_offerings_submitted_by_staff_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_offerings" ADD CONSTRAINT "course_offerings_approved_by_staff_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_scores" ADD CONSTRAINT "course_scores_offering_id_course_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."course_offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_scores" ADD CONSTRAINT "course_scores_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_scores" ADD CONSTRAINT "course_scores_entered_by_staff_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "department_heads" ADD CONSTRAINT "department_heads_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "department_heads" ADD CONSTRAINT "department_heads_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_schemes" ADD CONSTRAINT "grading_schemes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_lecturers" ADD CONSTRAINT "offering_lecturers_offering_id_course_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."course_offerings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_lecturers" ADD CONSTRAINT "offering_lecturers_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_published_by_staff_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "course_offerings_course_id_session_semester_index" ON "course_offerings" USING btree ("course_id","session","semester");--> statement-breakpoint
CREATE INDEX "course_offerings_department_id_session_semester_index" ON "course_offerings" USING btree ("department_id","session","semester");--> statement-breakpoint
CREATE INDEX "course_scores_student_id_index" ON "course_scores" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "offering_lecturers_staff_id_index" ON "offering_lecturers" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "result_publications_programme_id_session_semester_index" ON "result_publications" USING btree ("programme_id","session","semester");