import type { APIContext, MiddlewareNext } from "astro";
import { createServerApi, forwardedClient, SessionEnded } from "../api/server-api.server.ts";
import { site } from "../config/site.server.ts";
import {
  readSessionToken,
  readStaffToken,
  STAFF_COOKIE,
  SECURE_STAFF_COOKIE,
} from "../../../common/session/cookie.ts";
import { mayOpen } from "./menu.ts";
import { StaffMe } from "../../../common/staff/staff.ts";

// Staff pages anyone may open: the sign-in form and the password link.
const PUBLIC_STAFF_PAGES = [/^\/staff\/login\/?$/, /^\/staff\/password\//];
// Pages a session still at the code or enrolment step may open.
const STEP_PAGES: Record<string, RegExp> = {
  code: /^\/staff\/login\/code\/?$/,
  enrol: /^\/staff\/totp\/?$/,
};
const STEP_HOME: Record<string, string> = { code: "/staff/login/code", enrol: "/staff/totp" };

export const isStaffPage = (pathname: string) =>
  pathname === "/staff" || pathname.startsWith("/staff/");

/**
 * The gate in front of every staff page: no staff session → the staff sign-in, which says that
 * staff sign in there (and, to a signed-in student, that a student account cannot open staff
 * pages); a session still at the code or enrolment step → that step. Sets locals.staff.
 */
export async function staffGate(context: APIContext, next: MiddlewareNext) {
  const { pathname, search } = context.url;
  const cookies = context.request.headers.get("cookie");
  const secure = site().PUBLIC_ORIGIN.startsWith("https:");
  const token = readStaffToken(cookies, secure);
  context.locals.staffApi = createServerApi(
    token,
    forwardedClient(context.request),
    context.locals.requestId,
  );
  if (PUBLIC_STAFF_PAGES.some((pattern) => pattern.test(pathname))) return next();

  const toSignIn = () => {
    for (const name of [STAFF_COOKIE, SECURE_STAFF_COOKIE])
      context.cookies.delete(name, { path: "/" });
    const student: Record<string, string> = readSessionToken(cookies, secure)
      ? { student: "1" }
      : {};
    return context.redirect(
      `/staff/login?${new URLSearchParams({ next: pathname + search, ...student })}`,
      302,
    );
  };
  if (!token) return toSignIn();
  try {
    context.locals.staff = (await context.locals.staffApi.get("/staff/me", StaffMe)).data;
  } catch (error) {
    if (error instanceof SessionEnded) return toSignIn();
    throw error;
  }
  const stage = context.locals.staff.stage;
  if (stage !== "ready" && !STEP_PAGES[stage]!.test(pathname))
    return context.redirect(STEP_HOME[stage]!, 302);
  if (!mayOpen(pathname, context.locals.staff.roles))
    return context.rewrite("/staff/not-your-role");
  const response = await next();
  response.headers.set("cache-control", "private, no-store");
  return response;
}
