CREATE TABLE "session_promotions" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"promoted_by" integer,
	"at" timestamp with time zone NOT NULL,
	"promoted" integer NOT NULL,
	"graduating" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD COLUMN "is_current" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD COLUMN "registration_opens_on" date;--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD COLUMN "registration_closes_on" date;--> statement-breakpoint
ALTER TABLE "programmes" ADD COLUMN "final_level" integer DEFAULT 400 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_promotions" ADD CONSTRAINT "session_promotions_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_promotions" ADD CONSTRAINT "session_promotions_promoted_by_staff_id_fk" FOREIGN KEY ("promoted_by") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "academic_sessions_one_current" ON "academic_sessions" USING btree ("is_current") WHERE "academic_sessions"."is_current";--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD CONSTRAINT "academic_sessions_window_in_order" CHECK ("academic_sessions"."registration_opens_on" is null or "academic_sessions"."registration_closes_on" is null or "academic_sessions"."registration_opens_on" <= "academic_sessions"."registration_closes_on");--> statement-breakpoint
ALTER TABLE "programmes" ADD CONSTRAINT "programmes_final_level_is_a_level" CHECK ("programmes"."final_level" in (100, 200, 300, 400, 500));
--> statement-breakpoint
-- Hand-written backfill (keep at the end when this migration is regenerated).
-- Until now the newest session by name was the current one: say so explicitly.
UPDATE "academic_sessions" SET "is_current" = true
	WHERE "id" = (SELECT "id" FROM "academic_sessions" ORDER BY "name" DESC LIMIT 1);--> statement-breakpoint
-- NCE programmes last three years (final year: 300 level); degrees keep the default 400.
UPDATE "programmes" SET "final_level" = 300 WHERE "name" ILIKE 'NCE%';--> statement-breakpoint
-- Students' levels already describe the current session: promoting into it again would move them twice.
INSERT INTO "session_promotions" ("session_id", "promoted_by", "at", "promoted", "graduating")
	SELECT "id", NULL, now(), 0, 0 FROM "academic_sessions" WHERE "is_current";
