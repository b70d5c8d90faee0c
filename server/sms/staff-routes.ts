import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readQuery } from "../http/validate.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { SmsUsageQuery } from "../../common/sms/sms-usage.ts";
import { smsUsageByDay } from "./usage.ts";

/** What text messages cost the college, for the bursary and administrators (decision 200). */
export function smsStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const bursarOrAdmin = requireStaff(deps, { roles: ["bursar", "admin"] });
  app.get("/staff/sms/daily", bursarOrAdmin, async (c) => {
    const { days } = readQuery(c, SmsUsageQuery);
    return c.json({
      status: "success",
      data: { days: await smsUsageByDay(deps.db, days, deps.now()) },
    });
  });
  return app;
}
