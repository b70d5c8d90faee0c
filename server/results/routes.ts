import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { requireStudent } from "../auth/require-student.ts";
import { myResults } from "./student-results.ts";

/** A student's own published results (issue 32, decision 176). */
export function resultRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.get("/student/results", requireStudent(deps), async (c) => {
    const data = await myResults(deps.db, c.var.student.id, deps.resultsRequireFees ?? true);
    return c.json({ status: "success", data });
  });
  return app;
}
