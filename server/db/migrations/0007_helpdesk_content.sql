CREATE TABLE "complaint_replies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "complaint_replies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"complaint_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "show_from" date;--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "show_until" date;--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "ticket" text DEFAULT ('CMP-' || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1) || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1) || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1) || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1) || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1) || substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + floor(random() * 30)::int, 1)) NOT NULL;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "library_items" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "library_items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "complaint_replies" ADD CONSTRAINT "complaint_replies_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_replies" ADD CONSTRAINT "complaint_replies_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaint_replies_complaint_id_created_at_index" ON "complaint_replies" USING btree ("complaint_id","created_at");--> statement-breakpoint
CREATE INDEX "complaints_status_created_at_index" ON "complaints" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "complaints_student_id_created_at_index" ON "complaints" USING btree ("student_id","created_at");--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_ticket_unique" UNIQUE("ticket");--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_shown_in_order" CHECK ("announcements"."show_until" is null or "announcements"."show_from" is null or "announcements"."show_from" <= "announcements"."show_until");--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_status_known" CHECK ("complaints"."status" in ('open', 'answered', 'closed'));