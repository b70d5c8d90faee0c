import { createLogger, type Logger } from "../../../common/log/logger.server.ts";
import { pagesLogLevel, proxySecret } from "../config/site.server.ts";
import { requestIdFor } from "../../../common/log/request-id-for.server.ts";

let logger: Logger | undefined;

/** The page server's logger (server-only), made at its first line, at LOG_LEVEL (decision 125). */
export function pagesLog(): Logger {
  logger ??= createLogger({ name: "pages", level: pagesLogLevel() });
  return logger;
}

// Astro renders the error page for a failed request with the same Request object, running the
// middleware again: both renders must name one id, the one the student is shown.
const ids = new WeakMap<Request, string>();

/** The id the page server logs `request` under: the proxy's when it vouches for it, else a new one. */
export function pageRequestId(request: Request): string {
  let id = ids.get(request);
  if (!id) {
    id = requestIdFor(request.headers, proxySecret());
    ids.set(request, id);
  }
  return id;
}
