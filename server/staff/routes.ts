import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { staffAccountRoutes } from "./account-routes.ts";
import { advisingRoutes } from "../advising/routes.ts";
import { auditRoutes } from "./audit-routes.ts";
import { staffAuthRoutes } from "./auth-routes.ts";
import { studentImportRoutes } from "./students/import-routes.ts";
import { studentRecordRoutes } from "./students/record-routes.ts";
import { studentSignInRoutes } from "./students/sign-in-routes.ts";
import { academicStructureRoutes } from "./structure/routes.ts";
import { sessionAdminRoutes } from "./sessions/routes.ts";
import { helpDeskRoutes } from "../complaints/help-desk-routes.ts";
import { announcementRoutes } from "../announcements/routes.ts";
import { libraryAdminRoutes } from "../library/staff-routes.ts";
import { feeRoutes } from "./fees/fee-routes.ts";
import { bursaryRoutes } from "../bursary/routes.ts";

/** Everything under /staff: sign-in, accounts, the audit log (080), the registry's students (082), structure and sessions (083, 084), advisers' reviews (085), the fee schedule (095), the bursary's payments, reconciliation and refunds (100-102), the help desk (105), announcements and the library (106). */
export function staffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  // Sessions, announcements, mappings: whatever staff change, students served by this process
  // see it at once, not after the shared reads' few seconds.
  app.use("/staff/*", async (c, next) => {
    await next();
    // Staff answers hold students' records and staff accounts: no shared or back/forward cache
    // keeps one, refusals included (set after the error handler has made them).
    c.header("cache-control", "private, no-store");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400) deps.sharedReads.forgetAll();
  });
  app.route("/", staffAuthRoutes(deps));
  app.route("/", staffAccountRoutes(deps));
  app.route("/", auditRoutes(deps));
  app.route("/", advisingRoutes(deps));
  app.route("/", studentImportRoutes(deps));
  app.route("/", studentRecordRoutes(deps));
  app.route("/", studentSignInRoutes(deps));
  app.route("/", academicStructureRoutes(deps));
  app.route("/", sessionAdminRoutes(deps));
  app.route("/", helpDeskRoutes(deps));
  app.route("/", announcementRoutes(deps));
  app.route("/", libraryAdminRoutes(deps));
  app.route("/", feeRoutes(deps));
  app.route("/", bursaryRoutes(deps));
  return app;
}
