import type { APIContext, MiddlewareNext } from "astro";
import { defineMiddleware } from "astro:middleware";
import { z } from "zod";
import { createServerApi, forwardedClient, SessionEnded } from "./lib/api/server-api.server.ts";
import { site } from "./lib/config/site.server.ts";
import {
  readSessionToken,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from "../common/session/cookie.ts";
import { FLASH_COOKIE, flashMessage } from "../common/session/flash.ts";
import { StudentRecord } from "../common/students/student-record.ts";
import { isStaffPage, staffGate } from "./lib/staff/staff-gate.server.ts";
import { REQUEST_ID_HEADER } from "../common/http/request-id.ts";
import { withRequestId } from "../common/log/logger.server.ts";
import { pageRequestId, pagesLog } from "./lib/log/pages-log.server.ts";

// Pages anyone may open; every other page belongs to the signed-in shell.
const PUBLIC_PAGES = [
  /^\/login\/?$/,
  /^\/reset-password\/?$/,
  /^\/password\/reset(\/|$)/,
  /^\/password\/code\/?$/,
  // The USSD simulator's short address: a redirect to the API's page (development only).
  /^\/dev\/ussd\/?$/,
  /^\/verify\//,
  // A released transcript's signed page and the check by reference (decision 182).
  /^\/transcripts\//,
  /^\/_/,
  // The site-wide stylesheet, which the sign-in page prefetches (decision 203).
  /^\/site\.css$/,
  /^\/404\/?$/,
  /^\/500\/?$/,
];

const Me = z.object({ data: StudentRecord });

export const onRequest = defineMiddleware((context, next) => {
  const requestId = pageRequestId(context.request);
  context.locals.requestId = requestId;
  // The error page of a request that failed: that request has logged its error and its line.
  if (context.routePattern === "/500") return withRequestId(requestId, () => gate(context, next));
  return withRequestId(requestId, () => logged(context, () => gate(context, next)));
});

/**
 * Answers and logs one line (decision 125): method, route pattern (never the path: a reset
 * link's holds its token), status, time taken; and a failure with its stack, before Astro
 * renders the error page that shows the student the same id.
 */
async function logged(context: APIContext, answer: () => Promise<Response>) {
  const started = performance.now();
  let status = 500;
  try {
    const response = await answer();
    status = response.status;
    try {
      response.headers.set(REQUEST_ID_HEADER, context.locals.requestId);
    } catch {
      // Immutable headers: the line below still has the id.
    }
    return response;
  } catch (error) {
    pagesLog().error("page failed", { error });
    throw error;
  } finally {
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    pagesLog()[context.locals.requestLoggedByCaller ? "debug" : "info"]("request", {
      method: context.request.method,
      route: context.routePattern,
      status,
      durationMs,
    });
  }
}

async function gate(context: APIContext, next: MiddlewareNext) {
  const { pathname, search } = context.url;
  // Staff pages have their own cookie and gate; a student session never opens them.
  if (isStaffPage(pathname)) return staffGate(context, next);
  const token = readSessionToken(
    context.request.headers.get("cookie"),
    site().PUBLIC_ORIGIN.startsWith("https:"),
  );
  context.locals.api = createServerApi(
    token,
    forwardedClient(context.request),
    context.locals.requestId,
  );
  if (PUBLIC_PAGES.some((pattern) => pattern.test(pathname))) return next();

  const toSignIn = () => {
    for (const name of [SESSION_COOKIE, SECURE_SESSION_COOKIE])
      context.cookies.delete(name, { path: "/" });
    return context.redirect(`/login?${new URLSearchParams({ next: pathname + search })}`, 302);
  };
  if (!token) return toSignIn();
  try {
    context.locals.student = (await context.locals.api.get("/student/me", Me)).data;
  } catch (error) {
    if (error instanceof SessionEnded) return toSignIn();
    throw error;
  }
  // Shown once: the layout renders it, and the cookie goes with this response.
  const flash = flashMessage(context.cookies.get(FLASH_COOKIE)?.value);
  if (flash) {
    context.locals.flash = flash;
    context.cookies.delete(FLASH_COOKIE, { path: "/" });
  }
  const response = await next();
  // Signed-in pages carry personal data: never store them in a shared or back/forward cache.
  response.headers.set("cache-control", "private, no-store");
  return response;
}
