import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { staffAccountRoutes } from "./account-routes.ts";
import { staffAuthRoutes } from "./auth-routes.ts";

/** Staff identity under /staff: sign-in and the authenticator, and the accounts the administrator keeps (decision 080). */
export function staffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", staffAuthRoutes(deps));
  app.route("/", staffAccountRoutes(deps));
  return app;
}
