import { Hono } from "hono";
import { desc } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { requireStudent } from "../auth/require-student.ts";
import { academicSessions } from "../db/schema.ts";
import { preparedQuery } from "../db/prepared.ts";
import { liveAnnouncements } from "../announcements/schedule.ts";
import { collegeDate } from "../../common/format/dates.ts";
import { windowState } from "../../common/courses/registration-window.ts";

// The course picker lists them on every visit.
const allSessions = preparedQuery((db) =>
  db
    .select()
    .from(academicSessions)
    .orderBy(desc(academicSessions.name))
    .prepare("academic_sessions_newest_first"),
);

export function setupRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  // Per-route, not app.use(): a sub-app's wildcard middleware would also guard other routers' paths.
  const signedIn = requireStudent(deps);

  app.get("/setup/announcement/view", signedIn, async (c) => {
    const today = collegeDate(deps.now());
    const rows = await deps.sharedReads.read(`announcements ${today}`, () =>
      liveAnnouncements(deps.db, today),
    );
    return c.json({ status: "success", data: rows });
  });

  app.get("/setup/sessions/read", signedIn, async (c) => {
    const rows = await deps.sharedReads.read("sessions", () => allSessions(deps.db).execute());
    const today = collegeDate(deps.now());
    // course_modifiable says whether a student can change registration today: the registry's
    // switch and its dates together, so the course page never offers what the server refuses.
    const data = rows.map((session) => ({
      id: session.id,
      name: session.name,
      course_modifiable: windowState(session, today) === "open",
      is_current: session.isCurrent,
    }));
    return c.json({ status: "success", data: { data } });
  });

  return app;
}
