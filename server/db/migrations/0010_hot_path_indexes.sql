CREATE INDEX "course_mappings_programme_id_level_semester_index" ON "course_mappings" USING btree ("programme_id","level","semester");--> statement-breakpoint
CREATE INDEX "hostel_invoices_student_id_index" ON "hostel_invoices" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_student_id_index" ON "password_reset_tokens" USING btree ("student_id");