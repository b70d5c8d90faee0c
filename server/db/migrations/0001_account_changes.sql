CREATE TABLE "account_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"student_id" integer NOT NULL,
	"field" text NOT NULL,
	"old_value" text NOT NULL,
	"new_value" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"client_address" text NOT NULL,
	CONSTRAINT "account_changes_field_known" CHECK ("account_changes"."field" in ('phone', 'email'))
);
--> statement-breakpoint
CREATE TABLE "contact_change_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contact_change_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"student_id" integer NOT NULL,
	"new_phone" text,
	"new_email" text,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "contact_change_requests_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "contact_change_requests_changes_something" CHECK ("contact_change_requests"."new_phone" is not null or "contact_change_requests"."new_email" is not null)
);
--> statement-breakpoint
ALTER TABLE "account_changes" ADD CONSTRAINT "account_changes_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_change_requests" ADD CONSTRAINT "contact_change_requests_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_changes_student_id_changed_at_index" ON "account_changes" USING btree ("student_id","changed_at");--> statement-breakpoint
CREATE INDEX "contact_change_requests_student_id_index" ON "contact_change_requests" USING btree ("student_id");