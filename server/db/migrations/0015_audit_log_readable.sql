ALTER TABLE "audit_log" ADD COLUMN "by_student_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "part_of" integer;--> statement-breakpoint
CREATE INDEX "audit_log_part_of_index" ON "audit_log" USING btree ("part_of");--> statement-breakpoint
-- TRUNCATE fires no row trigger, so the UPDATE/DELETE guard of migration 0002 let it empty the
-- log; a statement trigger closes that (decision 162). Dropping or disabling a trigger needs the
-- table's owner, which the portal's own role is not in production (README, "The audit log").
CREATE OR REPLACE FUNCTION "audit_log_is_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_log rows cannot be changed, deleted or truncated';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
	FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_is_append_only"();
