import { Hono } from "hono";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { staffAccountRoutes } from "./account-routes.ts";
import { auditRoutes } from "./audit-routes.ts";
import { staffAuthRoutes } from "./auth-routes.ts";
import { academicStructureRoutes } from "./structure/routes.ts";
import { sessionAdminRoutes } from "./sessions/routes.ts";

/** Everything under /staff: sign-in, accounts, the audit log, academic structure and sessions. */
export function staffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", staffAuthRoutes(deps));
  app.route("/", staffAccountRoutes(deps));
  app.route("/", auditRoutes(deps));
  app.route("/", academicStructureRoutes(deps));
  app.route("/", sessionAdminRoutes(deps));
  return app;
}
