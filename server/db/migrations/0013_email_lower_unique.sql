-- Students whose e-mail addresses differ only in case cannot both keep them once the index below
-- exists. Rather than pick one, the migration stops and names them (ids only: no address goes
-- into a log), so the registry can give each their own address before starting again (decision 126).
-- It may run twice on one database and changes nothing the second time: its journal stamp was once
-- earlier than 0012's, so databases past 0012 skipped it, and the corrected stamp runs it again on
-- those that had it (decision 169).
DO $$
DECLARE
  shared text;
BEGIN
  SELECT string_agg(ids, '; ') INTO shared
  FROM (
    SELECT string_agg("id"::text, ', ' ORDER BY "id") AS ids
    FROM "students"
    GROUP BY lower("email")
    HAVING count(*) > 1
  ) AS clashes;
  IF shared IS NOT NULL THEN
    RAISE EXCEPTION 'Migration 0013_email_lower_unique: some students share one e-mail address written in different cases (student ids, by address: %). Give each of them an address of their own (the registry''s student record, or an UPDATE of students.email), then start the portal again.', shared;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "students" DROP CONSTRAINT IF EXISTS "students_email_unique";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "students_email_lower_unique" ON "students" USING btree (lower("email"));
