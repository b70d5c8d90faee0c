import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { readQuery } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import { currentSessionName } from "../students/student-record.ts";
import { registeredCourses } from "./student-view.ts";

const SessionName = z.string().regex(/^\d{4}\/\d{4}$/, "Choose a session such as 2024/2025.");
const Level = z.coerce
  .number({ error: "Choose a level." })
  .int()
  .refine((level) => [100, 200, 300, 400, 500].includes(level), "Choose a level from 100 to 500.");

const StudentViewQuery = z.object({
  registration_level: Level.optional(),
  session: SessionName.optional(),
});

export function courseRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  // Without a query (the dashboard), the current session at any level.
  app.get("/courses/student-view", signedIn, async (c) => {
    const query = readQuery(c, StudentViewQuery);
    const session = query.session ?? (await currentSessionName(deps.db));
    const data = session
      ? await registeredCourses(deps.db, c.var.student.id, session, query.registration_level)
      : [];
    return c.json({ status: "success", data });
  });

  return app;
}
