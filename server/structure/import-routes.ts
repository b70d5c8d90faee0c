import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { IMPORT_HEADERS, type ImportKind } from "../../common/structure/structure.ts";
import { parseCsv } from "../csv/csv-file.ts";
import { readCsvUpload } from "../csv/csv-upload.ts";
import { answerImport } from "../csv/import-report.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { runImport } from "./import-plan.ts";
import { IMPORT_PLANNERS } from "./structure-imports.ts";

/**
 * POST /staff/{faculties,departments,programmes,courses,course-mappings}/import: the file is
 * checked and written in one transaction, all rows or none (decisions 081 and 083). A dry run
 * and a written file answer 200; a real run refused for some rows answers 422 with the report.
 */
export function structureImportRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });

  for (const kind of Object.keys(IMPORT_HEADERS) as ImportKind[]) {
    app.post(`/staff/${kind}/import`, registry, async (c) => {
      const { text, dryRun } = await readCsvUpload(c);
      const rows = parseCsv(text, IMPORT_HEADERS[kind]);
      const author = { staffId: c.var.staff.id, at: deps.now() };
      // Each planner takes the rows of its own header; `kind` ties them, which TypeScript cannot follow through the loop.
      const report = await runImport(
        deps.db,
        dryRun,
        author,
        (tx) => IMPORT_PLANNERS[kind](tx, rows as never),
        { action: `${kind}.import`, entity: "structure_import" },
      );
      deps.logger.info("structure import", {
        kind,
        staffId: author.staffId,
        dryRun,
        written: report.written,
        rejected: report.rejected.length,
      });
      return answerImport(c, report);
    });
  }
  return app;
}
