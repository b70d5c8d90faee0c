import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { structureImportRoutes } from "./import-routes.ts";
import { mappingRoutes } from "./mapping-routes.ts";
import { modeRoutes } from "./modes.ts";
import { structureRoutes } from "./structure-routes.ts";

/** The registry's academic structure: faculties to course mappings, by form and by CSV (decision 083). */
export function structureStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", structureRoutes(deps));
  app.route("/", mappingRoutes(deps));
  app.route("/", structureImportRoutes(deps));
  app.route("/", modeRoutes(deps));
  return app;
}
