import type { MiddlewareHandler } from "hono";
import { refuse } from "./refusal.ts";

/**
 * Keeps every visit on the public origin. The session cookie belongs to one host, and Paystack
 * and mailed links return to the public origin: a student who signed in at another name for the
 * same server (127.0.0.1 for localhost) would come back from the checkout signed out.
 * GET and HEAD move with 308 to the same path there. Other methods are refused: a redirected
 * POST would arrive from another origin and be refused as cross-site anyway, and a form can
 * only be shown at the wrong host by someone who built it there.
 * The scheme is the one a TLS-terminating front proxy reports (X-Forwarded-Proto), so the
 * portal can sit behind one; such a proxy must pass the Host header on unchanged.
 */
export function canonicalOrigin(publicOrigin: string): MiddlewareHandler {
  const canonical = new URL(publicOrigin);
  return async (c, next) => {
    const url = new URL(c.req.url);
    const scheme =
      c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() ?? url.protocol.slice(0, -1);
    if (url.host === canonical.host && scheme === canonical.protocol.slice(0, -1)) return next();
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      return refuse(c, 403, `Open the portal at ${canonical.origin} and try again.`);
    }
    // Set, not resolved: resolving "//evil.example/x" against the origin would leave it.
    const target = new URL(canonical);
    target.pathname = url.pathname;
    target.search = url.search;
    return c.redirect(target.toString(), 308);
  };
}
