import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { SmsUsageQuery } from "../../common/sms/sms-usage.ts";
import { ScheduleReminderRequest } from "../../common/sms/sms-reminders.ts";
import { IdParam } from "../../common/validation/lists.ts";
import { smsUsageByDay } from "./usage.ts";
import { smsQueuedToday } from "./daily-cap.ts";
import { cancelReminder, listReminders, scheduleReminder } from "./reminders.ts";

const ReminderParam = IdParam("Choose a reminder from the list.");

/**
 * What text messages cost the college, for the bursary and administrators (decision 200), and the
 * deadline reminders the bursary and the registry schedule (decision 201).
 */
export function smsStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const bursarOrAdmin = requireStaff(deps, { roles: ["bursar", "admin"] });
  // Which kind each may schedule or cancel is checked per reminder (REMINDER_ROLES).
  const reminderRoles = requireStaff(deps, { roles: ["bursar", "registry", "admin"] });

  app.get("/staff/sms/daily", bursarOrAdmin, async (c) => {
    const { days } = readQuery(c, SmsUsageQuery);
    const now = deps.now();
    const cap =
      deps.smsDailyCap === undefined
        ? null
        : { limit: deps.smsDailyCap, queued_today: await smsQueuedToday(deps.db, now) };
    return c.json({
      status: "success",
      data: { days: await smsUsageByDay(deps.db, days, now), cap },
    });
  });

  app.get("/staff/sms/reminders", reminderRoles, async (c) =>
    c.json({ status: "success", data: await listReminders(deps.db, deps.now()) }),
  );

  app.post("/staff/sms/reminders", reminderRoles, async (c) => {
    const request = await readJson(c, ScheduleReminderRequest);
    const message = await scheduleReminder(deps.db, c.var.staff, request, deps.now());
    return c.json({ status: "success", message });
  });

  app.post("/staff/sms/reminders/:id/cancel", reminderRoles, async (c) => {
    const { id } = readParams(c, ReminderParam);
    const message = await cancelReminder(deps.db, c.var.staff, id, deps.now());
    return c.json({ status: "success", message });
  });

  return app;
}
