import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { promotionRoutes } from "./promotion-routes.ts";
import { sessionRoutes } from "./session-routes.ts";

/** The registry's sessions: current session, registration window and promotion (decision 084). */
export function academicSessionStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", sessionRoutes(deps));
  app.route("/", promotionRoutes(deps));
  return app;
}
