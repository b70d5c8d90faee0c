import { createMiddleware } from "hono/factory";
import type { Database } from "../db/client.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiEnv } from "../http/context.ts";
import { resolveSession, type SessionLimits } from "./sessions.ts";
import type { SessionCache } from "./session-cache.ts";

const SIGN_IN_AGAIN = "Your session has ended. Please sign in again.";

/** Lets the request through only with a live session; sets c.var.student. */
export function requireStudent(deps: {
  db: Database;
  now: () => Date;
  sessions: SessionLimits;
  sessionCache?: SessionCache;
}) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(header);
    if (!match?.[1]) throw new ApiError(401, SIGN_IN_AGAIN);
    const student = await resolveSession(
      deps.db,
      match[1],
      deps.now(),
      deps.sessions,
      deps.sessionCache,
    );
    if (!student) throw new ApiError(401, SIGN_IN_AGAIN);
    c.set("student", student);
    await next();
    // Whatever a student sends may change their record or end sessions (sign-out, a new phone
    // number): their next request reads both afresh.
    if (c.req.method !== "GET" && c.req.method !== "HEAD")
      deps.sessionCache?.forgetStudent(student.id);
  });
}

/** Refuses a path id that is not the signed-in student's own. */
export function assertOwnId(student: { id: number }, id: number) {
  if (student.id !== id) throw new ApiError(403, "You can only see and change your own record.");
}
