import { Hono } from "hono";
import type { ApiDeps } from "../../deps.ts";
import type { ApiEnv } from "../../http/context.ts";
import { readCsvUpload } from "../../csv/csv-upload.ts";
import { answerImport } from "../../csv/import-report.ts";
import { requireStaff } from "../../auth/require-staff.ts";
import { STUDENT_RECORD_ROLES } from "./student-access.ts";
import { importStudents } from "./student-import.ts";

/** POST /staff/students/import: a CSV of students, checked (dry_run=true) or written, all rows or none. */
export function studentImportRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.post(
    "/staff/students/import",
    requireStaff(deps, { roles: STUDENT_RECORD_ROLES }),
    async (c) => {
      const { text, dryRun } = await readCsvUpload(c);
      const report = await importStudents(deps, c.var.staff.id, text, dryRun);
      return answerImport(c, report);
    },
  );
  return app;
}
