import { Hono } from "hono";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { staffAccountRoutes } from "./account-routes.ts";
import { advisingRoutes } from "../advising/routes.ts";
import { auditRoutes } from "./audit-routes.ts";
import { staffAuthRoutes } from "./auth-routes.ts";

/** Everything under /staff: sign-in, accounts, the audit log (080) and advisers' reviews (085). */
export function staffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", staffAuthRoutes(deps));
  app.route("/", staffAccountRoutes(deps));
  app.route("/", auditRoutes(deps));
  app.route("/", advisingRoutes(deps));
  return app;
}
