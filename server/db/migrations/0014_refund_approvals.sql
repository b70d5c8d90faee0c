DROP INDEX "refunds_one_live_per_payment";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "declined_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_approved_by_staff_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_declined_by_staff_id_fk" FOREIGN KEY ("declined_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_payment_id_index" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_live_per_payment" ON "refunds" USING btree ("payment_id") WHERE "refunds"."status" not in ('failed', 'declined');--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_approver_is_not_asker" CHECK ("refunds"."approved_by" is null or "refunds"."approved_by" <> "refunds"."requested_by");