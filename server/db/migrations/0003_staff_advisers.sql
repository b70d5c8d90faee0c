CREATE TABLE "registration_returns" (
	"student_id" integer NOT NULL,
	"session" text NOT NULL,
	"semester" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"note" text NOT NULL,
	"returned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "registration_returns_student_id_session_semester_pk" PRIMARY KEY("student_id","session","semester")
);
--> statement-breakpoint
ALTER TABLE "registration_approvals" ALTER COLUMN "approved_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "registration_approvals" ADD COLUMN "staff_id" integer;--> statement-breakpoint
ALTER TABLE "registration_returns" ADD CONSTRAINT "registration_returns_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_returns" ADD CONSTRAINT "registration_returns_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_approvals" ADD CONSTRAINT "registration_approvals_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_approvals" ADD CONSTRAINT "registration_approvals_names_one_approver" CHECK (num_nonnulls("registration_approvals"."staff_id", "registration_approvals"."approved_by") = 1);