CREATE TABLE "sms_reminders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sms_reminders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"session" text NOT NULL,
	"deadline" date NOT NULL,
	"scheduled_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"capped_on" date,
	CONSTRAINT "sms_reminders_kind_known" CHECK ("sms_reminders"."kind" in ('school_fee', 'registration'))
);
--> statement-breakpoint
ALTER TABLE "sms_preferences" ADD COLUMN "results_news" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_preferences" ADD COLUMN "deadline_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_reminders" ADD CONSTRAINT "sms_reminders_scheduled_by_staff_id_fk" FOREIGN KEY ("scheduled_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_reminders" ADD CONSTRAINT "sms_reminders_cancelled_by_staff_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_reminders_deadline_index" ON "sms_reminders" USING btree ("deadline");