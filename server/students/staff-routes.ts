import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { studentImportRoutes } from "./registry/import-routes.ts";
import { studentRecordRoutes } from "./registry/record-routes.ts";
import { studentSignInRoutes } from "./registry/sign-in-routes.ts";

/** The registry's work on student records under /staff: import, records, sign-in help (decision 082). */
export function studentStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", studentImportRoutes(deps));
  app.route("/", studentRecordRoutes(deps));
  app.route("/", studentSignInRoutes(deps));
  return app;
}
