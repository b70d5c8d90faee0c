DROP INDEX "fee_schedule_payment_option_level_session_index";--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD COLUMN "late_fees_from" date;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD COLUMN "programme_id" integer;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD COLUMN "study_mode" text;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fee_id" integer;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_fee_id_fee_schedule_id_fk" FOREIGN KEY ("fee_id") REFERENCES "public"."fee_schedule"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_schedule_one_in_force" ON "fee_schedule" USING btree ("session",coalesce("programme_id", 0),"level",lower(coalesce("study_mode", '')),"payment_option") WHERE "fee_schedule"."replaced_at" is null;--> statement-breakpoint
CREATE INDEX "payments_fee_id_index" ON "payments" USING btree ("fee_id");
--> statement-breakpoint
-- Hand-written: payments made before fees had ids point at the one fee that matched them then
-- (every earlier fee was for all programmes and study modes, one per option, level and session).
UPDATE "payments" SET "fee_id" = "fee_schedule"."id" FROM "fee_schedule" WHERE "payments"."fee_id" IS NULL AND "fee_schedule"."payment_option" = "payments"."payment_option" AND "fee_schedule"."level" = "payments"."level" AND "fee_schedule"."session" = "payments"."session" AND "fee_schedule"."programme_id" IS NULL AND "fee_schedule"."study_mode" IS NULL;
