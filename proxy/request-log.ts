import type { MiddlewareHandler } from "hono";
import { REQUEST_ID_HEADER } from "../common/http/request-id.ts";
import { loggablePath } from "../common/log/scrub.ts";

/** What the proxy keeps per request: the id it made for it. */
export type RequestIdVariables = { Variables: { requestId: string } };

/**
 * Makes an id for every request (decision 125), never taking one a client sent: only the proxy
 * is trusted to name it. The id goes upstream with the request (see identifyClient in app.ts) and
 * back to the student on the answer's x-request-id, and with `log` one JSON line is written per
 * request: method, path without its query, status, time taken. Web-standard APIs only, so no pino.
 */
export function requestIds(options: {
  log?: (line: string) => void;
}): MiddlewareHandler<RequestIdVariables> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    c.set("requestId", requestId);
    await next();
    setHeader(c.res, requestId);
    options.log?.(
      JSON.stringify({
        level: "info",
        time: new Date().toISOString(),
        name: "proxy",
        requestId,
        message: "request",
        method: c.req.method,
        path: loggablePath(c.req.url),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
  };
}

function setHeader(response: Response, requestId: string) {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
  } catch {
    // Immutable headers (an answer passed on from fetch()); the relay copies those, so this is rare.
  }
}
