import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { REQUEST_ID_HEADER } from "../../common/http/request-id.ts";
import { withRequestId } from "../../common/log/logger.server.ts";
import { requestIdFor } from "../../common/log/request-id-for.server.ts";
import type { ApiEnv } from "./context.ts";
import type { Logger } from "./logger.ts";

/**
 * Gives every request an id (the proxy's, when it vouches for it with its secret), puts it on
 * every line logged while the request is answered and on the answer's x-request-id, and logs
 * one line when the answer is ready: method, route, status and time taken (decision 125). The
 * route is the pattern that answered (`/slips/verify/:token`), so no id, token or query is written.
 * A request handed over inside one process by a part that logs it already is written at debug:
 * one line per student request at info, not one per hop (decision 112).
 */
export function logRequests(deps: {
  logger: Logger;
  proxySecret?: string;
}): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.raw.headers, deps.proxySecret);
    c.set("requestId", requestId);
    c.set("logger", deps.logger);
    // Set before the handler answers, so it goes out with whatever answer Hono makes.
    c.header(REQUEST_ID_HEADER, requestId);
    await withRequestId(requestId, async () => {
      await next();
      // An answer a route built itself (a photo, a CSV file) did not take the prepared header.
      if (!c.res.headers.has(REQUEST_ID_HEADER)) {
        try {
          c.res.headers.set(REQUEST_ID_HEADER, requestId);
        } catch {
          // Immutable headers (a response fetched from elsewhere): the log line still has the id.
        }
      }
      deps.logger[c.env?.loggedByCaller ? "debug" : "info"]("request", {
        method: c.req.method,
        route: answeringRoute(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  };
}

/** The route pattern that answered, or null when none matched (the not-found answer). */
function answeringRoute(c: Context) {
  const route = routePath(c);
  return route === "*" || route === "/*" ? null : route;
}
