CREATE TABLE "entry_modes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entry_modes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"key" text GENERATED ALWAYS AS (regexp_replace(lower(normalize(name, NFKD)), '[^a-z0-9]', '', 'g')) STORED NOT NULL,
	CONSTRAINT "entry_modes_name_unique" UNIQUE("name"),
	CONSTRAINT "entry_modes_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "study_modes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "study_modes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"key" text GENERATED ALWAYS AS (regexp_replace(lower(normalize(name, NFKD)), '[^a-z0-9]', '', 'g')) STORED NOT NULL,
	CONSTRAINT "study_modes_name_unique" UNIQUE("name"),
	CONSTRAINT "study_modes_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "purpose" text DEFAULT 'reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "sent_to" text;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "search_name" text GENERATED ALWAYS AS (regexp_replace(regexp_replace(lower(normalize(surname || ' ' || othername, NFD)), '[^a-z0-9 ]', '', 'g'), ' +', ' ', 'g') || ' / ' || regexp_replace(regexp_replace(lower(normalize(othername || ' ' || surname, NFD)), '[^a-z0-9 ]', '', 'g'), ' +', ' ', 'g')) STORED NOT NULL;--> statement-breakpoint
-- Decision 154: the free-text modes become the registry's lists. Spaces are tidied first; the
-- spellings that differ only in case, spaces, hyphens or other punctuation collapse into one entry,
-- named by the spelling most rows use (ties: the first in alphabetical order).
UPDATE "students" SET "study_mode" = regexp_replace(trim("study_mode"), '\s+', ' ', 'g'), "entry_mode" = regexp_replace(trim("entry_mode"), '\s+', ' ', 'g');--> statement-breakpoint
UPDATE "fee_schedule" SET "study_mode" = regexp_replace(trim("study_mode"), '\s+', ' ', 'g') WHERE "study_mode" IS NOT NULL;--> statement-breakpoint
INSERT INTO "study_modes" ("name")
SELECT DISTINCT ON (k) name FROM (
  SELECT name, regexp_replace(lower(normalize(name, NFKD)), '[^a-z0-9]', '', 'g') AS k, count(*) AS uses FROM (
    SELECT "study_mode" AS name FROM "students"
    UNION ALL SELECT "study_mode" FROM "fee_schedule" WHERE "study_mode" IS NOT NULL
  ) spellings GROUP BY name
) counted ORDER BY k, uses DESC, name;--> statement-breakpoint
INSERT INTO "entry_modes" ("name")
SELECT DISTINCT ON (k) name FROM (
  SELECT "entry_mode" AS name, regexp_replace(lower(normalize("entry_mode", NFKD)), '[^a-z0-9]', '', 'g') AS k, count(*) AS uses FROM "students" GROUP BY "entry_mode"
) counted ORDER BY k, uses DESC, name;--> statement-breakpoint
-- A new installation starts with the usual first entry of each list; the registry adds the rest.
INSERT INTO "study_modes" ("name") SELECT 'Full Time' WHERE NOT EXISTS (SELECT 1 FROM "study_modes");--> statement-breakpoint
INSERT INTO "entry_modes" ("name") SELECT 'UTME' WHERE NOT EXISTS (SELECT 1 FROM "entry_modes");--> statement-breakpoint
UPDATE "students" s SET "study_mode" = m."name" FROM "study_modes" m WHERE m."key" = regexp_replace(lower(normalize(s."study_mode", NFKD)), '[^a-z0-9]', '', 'g') AND s."study_mode" <> m."name";--> statement-breakpoint
UPDATE "students" s SET "entry_mode" = m."name" FROM "entry_modes" m WHERE m."key" = regexp_replace(lower(normalize(s."entry_mode", NFKD)), '[^a-z0-9]', '', 'g') AND s."entry_mode" <> m."name";--> statement-breakpoint
-- Two fees in force that become one key ("Part Time" and "Part-Time" for the same session,
-- programme, level and option): the newest stays in force, the older is kept as replaced, as a
-- fee replaced on the fee schedule page is (payments against it still find it).
UPDATE "fee_schedule" f SET "replaced_at" = now()
FROM "fee_schedule" newer
WHERE f."replaced_at" IS NULL AND newer."replaced_at" IS NULL AND newer."id" > f."id"
  AND newer."session" = f."session" AND coalesce(newer."programme_id", 0) = coalesce(f."programme_id", 0)
  AND newer."level" = f."level" AND newer."payment_option" = f."payment_option"
  AND regexp_replace(lower(normalize(newer."study_mode", NFKD)), '[^a-z0-9]', '', 'g') = regexp_replace(lower(normalize(f."study_mode", NFKD)), '[^a-z0-9]', '', 'g');--> statement-breakpoint
UPDATE "fee_schedule" f SET "study_mode" = m."name" FROM "study_modes" m WHERE f."study_mode" IS NOT NULL AND m."key" = regexp_replace(lower(normalize(f."study_mode", NFKD)), '[^a-z0-9]', '', 'g') AND f."study_mode" <> m."name";--> statement-breakpoint
-- Activation links sent before this migration are known by their audit row only: mark the live
-- ones as activation links so the record page can say one is out.
UPDATE "password_reset_tokens" t SET "purpose" = 'activation', "sent_to" = s."email"
FROM "students" s WHERE s."id" = t."student_id" AND t."expires_at" - t."created_at" > interval '1 hour';--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_study_mode_study_modes_name_fk" FOREIGN KEY ("study_mode") REFERENCES "public"."study_modes"("name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_entry_mode_entry_modes_name_fk" FOREIGN KEY ("entry_mode") REFERENCES "public"."entry_modes"("name") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_study_mode_study_modes_name_fk" FOREIGN KEY ("study_mode") REFERENCES "public"."study_modes"("name") ON DELETE no action ON UPDATE cascade;