import type { Context, Env, Hono } from "hono";
import { apiErrorBody } from "./refusal.ts";
import type { Fetch } from "./relay.ts";
import type { LineReport } from "./waiting-line/gate.ts";

/** A probe's answer describes this instance at this moment: nothing may keep it. */
const NOT_STORED = { "cache-control": "no-store" };

/** Longer than the API's own wait for its database, so the API's reason arrives first. */
const API_TIMEOUT_MS = 5_000;

/**
 * The load balancer's probes on the proxy (decision 120). `/healthz` answers from this process
 * alone. `/readyz` asks the API's `/readyz` and passes its answer on: a proxy is ready to take
 * students exactly when the API behind it can serve them. Mounted before the canonical-origin
 * redirect (a probe addresses the instance, not the public name) and before everything else:
 * no session, no limit, no compression.
 */
export function mountHealth<E extends Env>(
  app: Hono<E>,
  options: {
    fetchUpstream: Fetch;
    apiUrl: string;
    /**
     * The line at the door, shown beside the API's answer so an operator sees deadline day happen.
     * Read afresh (at most once a second), so a probe sees a line that formed or a door held
     * since the last newcomer arrived.
     */
    line?: () => Promise<LineReport>;
  },
) {
  app.get("/healthz", (c) => c.json({ status: "ok" }, 200, NOT_STORED));

  app.get("/readyz", async (c) => {
    let answer: Response;
    try {
      answer = await options.fetchUpstream(
        new Request(new URL("/readyz", options.apiUrl), {
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(API_TIMEOUT_MS),
        }),
      );
    } catch {
      return c.json({ status: "not ready", reason: "the API is not answering" }, 503, NOT_STORED);
    }
    const body = await answer.json().catch(() => null);
    if (answer.status === 200) {
      const ready = (body ?? { status: "ready" }) as Record<string, unknown>;
      return c.json(
        options.line ? { ...ready, line: await options.line() } : ready,
        200,
        NOT_STORED,
      );
    }
    if (isNotReady(body)) return c.json(body, 503, NOT_STORED);
    return c.json(
      { status: "not ready", reason: `the API answered ${answer.status}` },
      503,
      NOT_STORED,
    );
  });

  app.all("/healthz", onlyGet);
  app.all("/readyz", onlyGet);
}

function isNotReady(body: unknown): body is { status: "not ready"; reason: string } {
  return (
    typeof body === "object" &&
    body !== null &&
    (body as { status?: unknown }).status === "not ready" &&
    typeof (body as { reason?: unknown }).reason === "string"
  );
}

function onlyGet(c: Context) {
  return c.json(apiErrorBody("Only GET is answered here."), 405, {
    ...NOT_STORED,
    allow: "GET, HEAD",
  });
}
