CREATE TABLE "promotion_changes" (
	"run_id" integer NOT NULL,
	"student_id" integer NOT NULL,
	"from_level" integer NOT NULL,
	"to_level" integer NOT NULL,
	"from_stage" text NOT NULL,
	"to_stage" text NOT NULL,
	CONSTRAINT "promotion_changes_run_id_student_id_pk" PRIMARY KEY("run_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promotion_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" integer NOT NULL,
	"promoted_by" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"held" integer NOT NULL,
	"undone_by" integer,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registration_resubmissions" (
	"student_id" integer NOT NULL,
	"session" text NOT NULL,
	"semester" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_resubmissions_student_id_session_semester_pk" PRIMARY KEY("student_id","session","semester")
);
--> statement-breakpoint
ALTER TABLE "promotion_changes" ADD CONSTRAINT "promotion_changes_run_id_promotion_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."promotion_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_changes" ADD CONSTRAINT "promotion_changes_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_runs" ADD CONSTRAINT "promotion_runs_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_runs" ADD CONSTRAINT "promotion_runs_promoted_by_staff_id_fk" FOREIGN KEY ("promoted_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_runs" ADD CONSTRAINT "promotion_runs_undone_by_staff_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_resubmissions" ADD CONSTRAINT "registration_resubmissions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_runs_one_in_force" ON "promotion_runs" USING btree ("session_id") WHERE "promotion_runs"."undone_at" is null;