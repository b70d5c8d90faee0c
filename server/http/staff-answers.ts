import type { MiddlewareHandler } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "./context.ts";
import { setAnswerHeader } from "../../common/http/answer-in-place.ts";

/**
 * What every answer under /staff gets. Staff answers hold students' records and staff accounts:
 * no shared or back/forward cache keeps one, refusals included (set after the error handler has
 * made them). And whatever staff change (sessions, announcements, mappings), students served by
 * this process see it at once, not after the shared reads' few seconds.
 */
export function staffAnswers(deps: Pick<ApiDeps, "sharedReads">): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await next();
    setAnswerHeader(c, "cache-control", "private, no-store");
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400)
      deps.sharedReads.forgetAll();
  };
}
