import { createMiddleware } from "hono/factory";
import type { ApiDeps } from "../deps.ts";
import { resolveSession } from "./sessions.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiEnv } from "../http/context.ts";
import type { SignInStage, StaffRole } from "../../common/staff/staff.ts";
import { ROLES_NEEDING_TOTP } from "../../common/staff/staff.ts";
import { resolveStaffSession, type SignedInStaff } from "../staff/staff-sessions.ts";

const SIGN_IN_AGAIN = "Your staff session has ended. Please sign in again.";
const STAFF_ONLY = "This part of the portal is for college staff. Sign in with a staff account.";
const ROLE_MISSING =
  "Your account does not have the role this needs. Ask an administrator if it should.";
const FINISH_SIGN_IN =
  "Finish signing in first: enter the code from your authenticator app, or set one up.";

/** Where a signed-in staff member stands: waiting for a code, needing enrolment, or ready. */
export function signInStage(member: SignedInStaff): SignInStage {
  if (member.secondFactorDone) return "ready";
  if (member.totpSecret) return "code";
  return member.roles.some((role) => ROLES_NEEDING_TOTP.includes(role as StaffRole))
    ? "enrol"
    : "ready";
}

type Options = {
  /** Roles any one of which opens the route; omitted: any staff member. */
  roles?: readonly StaffRole[];
  /** Stages besides `ready` the route serves (the code and enrolment steps). */
  stages?: readonly SignInStage[];
};

/**
 * Lets the request through only with a live staff session at the right stage and role; sets
 * c.var.staff. A student's token gets 403, not 401: it is a real session, of the wrong kind.
 */
export function requireStaff(
  deps: Pick<ApiDeps, "db" | "now" | "sessions">,
  options: Options = {},
) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(c.req.header("authorization") ?? "");
    if (!match?.[1]) throw new ApiError(401, SIGN_IN_AGAIN);
    const member = await resolveStaffSession(deps.db, match[1], deps.now());
    if (!member) {
      const student = await resolveSession(deps.db, match[1], deps.now(), deps.sessions);
      throw student ? new ApiError(403, STAFF_ONLY) : new ApiError(401, SIGN_IN_AGAIN);
    }
    const stage = signInStage(member);
    if (stage !== "ready" && !options.stages?.includes(stage))
      throw new ApiError(403, FINISH_SIGN_IN);
    if (options.roles && !member.roles.some((role) => options.roles!.includes(role as StaffRole))) {
      throw new ApiError(403, ROLE_MISSING);
    }
    c.set("staff", member);
    await next();
  });
}
