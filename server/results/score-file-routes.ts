import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readParams, readQuery } from "../http/validate.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { readCsvUpload } from "../csv/csv-upload.ts";
import { answerImport } from "../csv/import-report.ts";
import { OfferingListQuery } from "../../common/results/course-lecturers.ts";
import { OfferingParam } from "../../common/results/score-sheets.ts";
import { assertTeaches } from "./offerings.ts";
import { courseLecturers } from "./course-lecturers.ts";
import { importScores, scoreFile } from "./score-file.ts";

/**
 * The registry's list of a semester's offerings and their lecturers, and a lecturer's score file:
 * the roster to fill in as CSV, and its upload (all rows or none, with the CSV kit's report).
 */
export function scoreFileRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: ["registry"] });
  const lecturers = requireStaff(deps, { roles: ["lecturer"] });

  app.get("/staff/results/offerings", registry, async (c) => {
    const choice = readQuery(c, OfferingListQuery);
    return c.json({ status: "success", data: await courseLecturers(db, choice) });
  });

  app.get("/staff/results/offerings/:id/scores.csv", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    const { text, fileName } = await scoreFile(db, id);
    c.header("content-type", "text/csv; charset=utf-8");
    c.header("content-disposition", `attachment; filename="${fileName}"`);
    return c.body(text);
  });

  app.post("/staff/results/offerings/:id/scores/import", lecturers, async (c) => {
    const { id } = readParams(c, OfferingParam);
    await assertTeaches(db, c.var.staff.id, id);
    const { text, dryRun } = await readCsvUpload(c);
    return answerImport(c, await importScores(db, c.var.staff.id, id, text, dryRun, now()));
  });

  return app;
}
