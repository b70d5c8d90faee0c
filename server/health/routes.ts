import { Hono, type Context } from "hono";
import type { ApiDeps } from "../deps.ts";
import { errorBody } from "../http/errors.ts";
import { checkReadiness } from "./readiness.ts";

/** A probe's answer describes this instance at this moment: nothing may keep it. */
const NOT_STORED = { "cache-control": "no-store" };

/**
 * The load balancer's probes (decision 120). `/healthz`: the process is up and answering; it
 * touches nothing, so a slow database never gets a live instance restarted. `/readyz`: the
 * database answers and has every migration this code needs, so traffic may be sent here.
 * Neither needs a session or counts against a limit; both are GET (and HEAD) only.
 */
export function healthRoutes(deps: Pick<ApiDeps, "db" | "logger">) {
  const app = new Hono();

  app.get("/healthz", (c) => c.json({ status: "ok" }, 200, NOT_STORED));

  app.get("/readyz", async (c) => {
    const readiness = await checkReadiness(deps.db);
    if (readiness.ready) return c.json({ status: "ready" }, 200, NOT_STORED);
    deps.logger.warn("not ready", {
      reason: readiness.reason,
      ...(readiness.error ? { error: readiness.error } : {}),
    });
    return c.json({ status: "not ready", reason: readiness.reason }, 503, NOT_STORED);
  });

  app.all("/healthz", onlyGet);
  app.all("/readyz", onlyGet);
  return app;
}

function onlyGet(c: Context) {
  return c.json(errorBody("Only GET is answered here."), 405, {
    ...NOT_STORED,
    allow: "GET, HEAD",
  });
}
